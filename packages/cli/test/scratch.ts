import { chmod, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/** A temporary directory for the tests of one file. */
export interface Scratch {
  /** Its real path (set once the file's tests start). */
  readonly dir: string;
  /** Writes `text` to the file `name` in it and returns the file's path. */
  write(name: string, text: string): Promise<string>;
}

/**
 * A temporary directory made before the tests of the calling file and removed after them (after the `afterAll`
 * hooks the file registers later, such as stopping servers). `mode` opens it up, e.g. `0o711` for the sandboxes'
 * user to traverse it.
 */
export function scratchDir(prefix: string, options: { mode?: number } = {}): Scratch {
  let dir = '';
  beforeAll(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), prefix)));
    if (options.mode !== undefined) await chmod(dir, options.mode);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));
  return {
    get dir() {
      return dir;
    },
    async write(name, text) {
      const path = join(dir, name);
      await writeFile(path, text);
      return path;
    },
  };
}
