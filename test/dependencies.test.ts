import { readFile, readdir } from 'node:fs/promises';
import { isBuiltin } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { filesUnder, importSpecifiers } from './support/imports.ts';

/**
 * Every package imports only what its package.json declares: a package that works only because a sibling's
 * dependency was hoisted into the root node_modules breaks when installed alone (or when the sibling drops it).
 * Sources and bin scripts need the package's `dependencies`; its tests may also use the root devDependencies.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PACKAGES = join(ROOT, 'packages');

/** The package an import specifier names (`@scope/name/deep.js` -> `@scope/name`), or none for a relative path. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || isBuiltin(specifier)) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function importedPackages(source: string): Set<string> {
  const names = new Set<string>();
  for (const specifier of importSpecifiers(source)) {
    const name = packageOf(specifier);
    if (name) names.add(name);
  }
  return names;
}

const sourceFiles = (dir: string) => filesUnder(dir, /\.(?:ts|tsx|mts|js|mjs)$/);

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

const readManifest = async (dir: string) => JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as Manifest;

/** `file: package` for every import of a package the manifest does not allow. */
async function undeclared(dir: string, folders: string[], allowed: Set<string>): Promise<string[]> {
  const found: string[] = [];
  for (const folder of folders) {
    for (const file of await sourceFiles(join(dir, folder))) {
      for (const name of importedPackages(await readFile(file, 'utf8'))) {
        if (!allowed.has(name)) found.push(`${relative(ROOT, file)}: ${name}`);
      }
    }
  }
  return found;
}

describe('declared dependencies', () => {
  it('reads the package named by static, bare and dynamic imports, and nothing else', () => {
    const source = [
      "import { a } from 'alpha';",
      "import type {\n  B,\n} from '@scope/beta/deep.js';",
      "export { c } from './local.ts';",
      "import 'gamma/register';",
      "const d = await import('delta');",
      "import { join } from 'node:path';",
      "import { readFile } from 'fs';",
      "const text = 'words from the user';",
    ].join('\n');
    expect([...importedPackages(source)].sort()).toEqual(['@scope/beta', 'alpha', 'delta', 'gamma']);
  });

  it('every workspace package declares what its sources and tests import', async () => {
    const root = await readManifest(ROOT);
    const rootDev = Object.keys(root.devDependencies ?? {});
    const problems: string[] = [];
    for (const entry of await readdir(PACKAGES, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const dir = join(PACKAGES, entry.name);
      const manifest = await readManifest(dir);
      const own = [manifest.name, ...Object.keys(manifest.dependencies ?? {})];
      problems.push(...(await undeclared(dir, ['src', 'bin'], new Set(own))));
      const ownDev = Object.keys(manifest.devDependencies ?? {});
      problems.push(...(await undeclared(dir, ['test'], new Set([...own, ...ownDev, ...rootDev]))));
    }
    expect(problems).toEqual([]);
  });
});
