import { symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Sandbox } from './support.ts';

/**
 * A small project for the search tools: files with distinct modification times (the list is newest first),
 * plus what searches must skip: hidden files and directories, node_modules, a binary file, a symbolic link
 * to a directory outside the workspace.
 */
export const FIXTURE_FILES: ReadonlyArray<readonly [string, string]> = [
  ['src/util/strings.test.ts', 'import { pad } from "./strings";\ntest("pad", () => {});\n'],
  ['src/index.ts', 'export function main() {\n  return NEEDLE;\n}\n'],
  ['src/util/strings.ts', 'export function pad(s: string) {\n  return s; // needle\n}\n'],
  ['src/components/Button.tsx', 'export const Button = () => null;\n'],
  ['lib/legacy.js', 'module.exports = function legacy() { return "needle"; };\n'],
  ['README.md', '# Project\n\nFind the needle here.\n'],
  ['docs/guide.md', '# Guide\n\nNothing to see.\n'],
  ['build/out.ts', 'export const built = true;\n'],
  ['src/[special].ts', 'export const special = "brackets";\n'],
];

export async function writeFixture(box: Sandbox): Promise<void> {
  const start = Date.parse('2024-06-01T00:00:00Z') / 1000;
  let index = 0;
  for (const [path, content] of FIXTURE_FILES) {
    await box.write(path, content);
    const time = start - index++ * 60;
    await utimes(box.path(path), time, time);
  }
  await box.write('.hidden/secret.ts', 'needle in a hidden dir\n');
  await box.write('.env.ts', 'needle in a hidden file\n');
  await box.write('node_modules/pkg/index.ts', 'needle in a dependency\n');
  await box.write('data/blob.ts', new Uint8Array([0, 1, 2, ...new TextEncoder().encode('needle'), 0]));
  await writeFile(join(box.outside, 'evil.ts'), 'needle outside\n');
  await symlink(box.outside, box.path('escape'));
  await symlink(box.path('src/index.ts'), box.path('index-link.ts'));
}

/** Paths relative to the workspace, for readable expectations. */
export function relativeTo(box: Sandbox, paths: readonly string[]): string[] {
  return paths.map((path) => path.slice(box.workspace.length + 1));
}
