import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Static `import`/`export ... from`, bare `import '...'` and dynamic `import('...')` (also `typeof import(...)`). */
const IMPORT_PATTERNS = [
  /^\s*(?:import|export)\s[^;'"]*?\sfrom\s*['"]([^'"]+)['"]/gm,
  /^\s*import\s*['"]([^'"]+)['"]/gm,
  /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
];

/** Every module specifier a source file imports, in the order of the patterns (a specifier may repeat). */
export function importSpecifiers(source: string): string[] {
  return IMPORT_PATTERNS.flatMap((pattern) => [...source.matchAll(pattern)].map((match) => match[1] as string));
}

/** The files under `dir` (recursively) whose names match `name`, outside any `dist` folder; none if `dir` is absent. */
export async function filesUnder(dir: string, name: RegExp): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile() && name.test(entry.name) && !entry.parentPath.includes('/dist'))
    .map((entry) => join(entry.parentPath, entry.name));
}
