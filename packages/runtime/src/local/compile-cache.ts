import { existsSync } from 'node:fs';
import { copyFile, link, mkdir, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Node's compile cache directory of one user: `<Node's version tag>-<uid>`. */
const PER_USER = /^(.+)-(\d+)$/;

const shared = new Map<string, Promise<void>>();

/**
 * Node keeps its compile cache per user (`compile-cache/<version tag>-<uid>` beside the bundle), and a user without
 * one of their own that cannot create it (the installation is read-only to sandboxes) runs without any: the bundle's
 * build fills its own user's, which a sandbox's user would not use, and every start compiled what loads from
 * node_modules again. So the runtime gives each sandbox user a copy of it (hard links), once, where it may write.
 * Nothing happens for a command that is not the bundle, or where the copy cannot be made (the start is then slower).
 */
export function shareCompileCache(command: readonly string[], uid: number): Promise<void> {
  const entry = command[1];
  if (!entry || basename(entry) !== 'bosun.mjs') return Promise.resolve();
  const cache = join(dirname(entry), 'compile-cache');
  const key = `${cache}:${uid}`;
  let sharing = shared.get(key);
  if (!sharing) {
    sharing = copyForUser(cache, uid).catch(() => {});
    shared.set(key, sharing);
  }
  return sharing;
}

async function copyForUser(cache: string, uid: number): Promise<void> {
  for (const name of await readdir(cache)) {
    const tag = PER_USER.exec(name)?.[1];
    const target = join(cache, `${tag}-${uid}`);
    if (!tag || existsSync(target)) continue;
    // Made aside and renamed into place: a sandbox never sees a half-made one.
    const making = `${target}.${process.pid}`;
    await rm(making, { recursive: true, force: true });
    await mkdir(making, { mode: 0o755 });
    for (const file of await readdir(join(cache, name))) {
      const from = join(cache, name, file);
      await link(from, join(making, file)).catch(() => copyFile(from, join(making, file)));
    }
    await rename(making, target).catch(() => rm(making, { recursive: true, force: true }));
  }
}
