import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { SkillSet, loadProjectSkills } from '@bosun/sources';
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

/** A workspace with every kind of skill, loaded. */
export async function workspaceSkills() {
  const root = await scratch();
  await writeTree(root, {
    'AGENTS.md': 'Always run the tests.',
    '.agents/skills/pdf-tools/SKILL.md': validSkill('pdf-tools', 'Extract text from PDF files & forms <fast>.'),
    '.agents/skills/pdf-tools/scripts/extract.py': 'print(1)',
    '.agents/skills/pdf-tools/references/FORMS.md': '# Forms',
    '.agents/skills/kubernetes/SKILL.md': skillMd(
      { name: 'kubernetes', description: 'Work with clusters.', triggers: '[kubectl, Helm chart]' },
      'Use kubectl carefully.',
    ),
    '.agents/skills/release/SKILL.md': skillMd(
      { name: 'release', description: 'Cut a release.', 'disable-model-invocation': 'true' },
      'Tag, build, publish.',
    ),
    '.agents/skills/style.md': 'Two spaces, no tabs.',
    '.agents/skills/deploy.md': '---\ntriggers: [deploy]\n---\nDeploy with make deploy.',
  });
  const { skills } = await loadProjectSkills(root);
  return { root, set: new SkillSet(skills) };
}
