import { readFile, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * A skipped test says why (`context.skip('ripgrep is not installed ...')`), and the run prints it: `it.skip`,
 * `skipIf` and `runIf` cannot carry a reason, and a skip without one leaves a reader guessing what a green run
 * did not check.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SELF = fileURLToPath(import.meta.url);
const NO_REASON = [
  { pattern: /\b(?:it|test|describe)\.(?:skip|skipIf|runIf|todo)\b/, why: 'cannot say why: use context.skip(reason)' },
  { pattern: /\.skip\(\s*\)/, why: 'has no reason: context.skip(reason)' },
];

async function testSources(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.parentPath.includes('node_modules'))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('skipped tests', () => {
  it('each say why', async () => {
    const packages = await readdir(join(ROOT, 'packages'));
    const dirs = [join(ROOT, 'test'), ...packages.map((name) => join(ROOT, 'packages', name, 'test'))];
    const files = (await Promise.all(dirs.map((dir) => testSources(dir).catch(() => [])))).flat();
    expect(files.length).toBeGreaterThan(100);
    const found: string[] = [];
    for (const file of files.filter((path) => path !== SELF)) {
      const lines = (await readFile(file, 'utf8')).split('\n');
      lines.forEach((line, index) => {
        for (const { pattern, why } of NO_REASON) {
          if (pattern.test(line)) found.push(`${relative(ROOT, file)}:${index + 1}: ${why}`);
        }
      });
    }
    expect(found).toEqual([]);
  });
});
