import { symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Observation } from '@bosun/protocol';
import { expect } from 'vitest';
import { MAX_SEARCH_RESULTS } from '../../src/tools/shared/newest-first.ts';
import { ripgrepFor } from '../../src/tools/shared/ripgrep.ts';
import { type Sandbox, sandbox, textOf } from './support.ts';

/** The ripgrep binary the search tools use on this machine, if there is one. */
export const ripgrep = await ripgrepFor('auto');

/** The ways the search tools search here: pure Node always, and ripgrep where the machine has it. */
export const implementations = [
  { name: 'pure Node', setting: false as const },
  ...(ripgrep ? [{ name: 'ripgrep', setting: ripgrep }] : []),
];

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

/** A fresh sandbox holding the fixture project. */
export async function fixtureSandbox(): Promise<Sandbox> {
  const box = await sandbox();
  await writeFixture(box);
  return box;
}

/** Writes `many/f0.txt` to `many/f<count - 1>.txt`, each modified after the one before it. */
export async function writeNumberedFiles(box: Sandbox, count: number, content: (i: number) => string): Promise<void> {
  for (let i = 0; i < count; i++) {
    const path = await box.write(`many/f${i}.txt`, content(i));
    await utimes(path, 1_700_000_000 + i, 1_700_000_000 + i);
  }
}

/** What a search of the `count` numbered files returns: the newest it may list, newest first, and the notice. */
export function expectNewestNumberedFiles(
  box: Sandbox,
  observation: Observation & { truncated: boolean },
  found: readonly string[],
  count: number,
): void {
  expect(observation.truncated).toBe(true);
  expect(found).toHaveLength(MAX_SEARCH_RESULTS);
  expect(relativeTo(box, found.slice(0, 2))).toEqual([`many/f${count - 1}.txt`, `many/f${count - 2}.txt`]);
  expect(textOf(observation)).toContain('[Results truncated to the 100 most recently modified files.');
}

/** A refused search: an error whose text says `message`, finding nothing. */
export function expectRefused(observation: Observation, found: readonly string[], message: RegExp, call: string): void {
  expect(observation.is_error, call).toBe(true);
  expect(textOf(observation)).toMatch(message);
  expect(found).toEqual([]);
}

/** Paths relative to the workspace, for readable expectations. */
export function relativeTo(box: Sandbox, paths: readonly string[]): string[] {
  return paths.map((path) => path.slice(box.workspace.length + 1));
}
