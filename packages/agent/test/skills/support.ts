import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { onTestFinished } from 'vitest';
import { tempDir } from '../git/support.ts';

/** A temporary directory for the current test (removed when it ends). */
export async function scratch(prefix = 'bosun-skills-'): Promise<string> {
  const { dir, cleanup } = await tempDir(prefix);
  onTestFinished(cleanup);
  return dir;
}

/** Writes `files` (relative path -> content) under `root`. */
export async function writeTree(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    const full = join(root, path);
    await mkdir(dirname(full), { recursive: true });
    await writeFile(full, content);
  }
}

/** A SKILL.md text: frontmatter fields (written as given, one per line) and a body. */
export function skillMd(fields: Record<string, string>, body = 'Do the thing step by step.'): string {
  const lines = Object.entries(fields).map(([key, value]) => `${key}: ${value}`);
  return `---\n${lines.join('\n')}\n---\n\n${body}\n`;
}

/** A valid SKILL.md for `name`. */
export function validSkill(
  name: string,
  description = `Does ${name} work. Use when asked for ${name}.`,
  body?: string,
) {
  return skillMd({ name, description }, body ?? `# ${name}\n\nInstructions of ${name}.`);
}
