import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | null | undefined;

/**
 * The installation's root: the directory of the root `package.json` (the one naming the workspaces) above this module,
 * found the same from the sources and from the bundle (`packages/cli/dist`). Undefined when none is found.
 */
export function installationRoot(): string | undefined {
  if (root === undefined) {
    root = null;
    for (let dir = dirname(fileURLToPath(import.meta.url)); dirname(dir) !== dir; dir = dirname(dir)) {
      const manifest = join(dir, 'package.json');
      if (existsSync(manifest) && 'workspaces' in JSON.parse(readFileSync(manifest, 'utf8'))) {
        root = dir;
        break;
      }
    }
  }
  return root ?? undefined;
}
