import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ObjectBody } from './object-store.ts';

export function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/** Errors that mean "there is no file there": the path, or a folder on it, is missing or is not what it should be. */
export function isMissing(error: unknown): boolean {
  const code = errorCode(error);
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR';
}

/** Writes `body` to a new file in `tmpDir`, flushed to disk, and answers its path; a failed write leaves nothing. */
export async function writeTemporary(tmpDir: string, body: ObjectBody): Promise<string> {
  await mkdir(tmpDir, { recursive: true });
  const path = join(tmpDir, randomUUID());
  try {
    if (body instanceof Readable) {
      await pipeline(body, createWriteStream(path, { flags: 'wx', flush: true }));
    } else {
      const file = await open(path, 'wx');
      try {
        await file.writeFile(body);
        await file.sync();
      } finally {
        await file.close();
      }
    }
    return path;
  } catch (error) {
    await rm(path, { force: true });
    throw error;
  }
}

/**
 * Moves a finished temporary file to `target`, making the folders on the way. A folder pruned by a concurrent
 * delete between the two steps is made again.
 */
export async function moveInto(temporary: string, target: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await mkdir(dirname(target), { recursive: true });
    try {
      await rename(temporary, target);
      return;
    } catch (error) {
      if (errorCode(error) !== 'ENOENT' || attempt >= 5) throw error;
    }
  }
}

/** Removes the folders from `dir` up to (not including) `root` that are empty, stopping at the first that is not. */
export async function pruneEmptyFolders(dir: string, root: string): Promise<void> {
  for (let current = dir; current.startsWith(root + sep); current = dirname(current)) {
    try {
      await rmdir(current);
    } catch {
      return;
    }
  }
}

/** The files under `dir`, as `/`-separated paths relative to `root`. */
export async function filesUnder(dir: string, root: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (folder: string, relative: string): Promise<void> => {
    const entries = await readdir(folder, { withFileTypes: true }).catch((error: unknown) => {
      if (isMissing(error)) return [];
      throw error;
    });
    for (const entry of entries) {
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) await walk(join(folder, entry.name), path);
      else if (entry.isFile()) found.push(path);
    }
  };
  const start =
    dir === root
      ? ''
      : dir
          .slice(root.length + 1)
          .split(sep)
          .join('/');
  await walk(dir, start);
  return found;
}

/** Removes files in `tmpDir` older than `maxAgeMs`: what writes interrupted by a crash left behind. */
export async function removeStaleTemporaries(tmpDir: string, maxAgeMs: number): Promise<void> {
  const names = await readdir(tmpDir).catch(() => [] as string[]);
  const cutoff = Date.now() - maxAgeMs;
  for (const name of names) {
    const path = join(tmpDir, name);
    const info = await stat(path).catch(() => undefined);
    if (info && info.mtimeMs < cutoff) await rm(path, { force: true });
  }
}
