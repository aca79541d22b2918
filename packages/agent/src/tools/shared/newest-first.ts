import { stat } from 'node:fs/promises';
import { mapLimit } from '@bosun/sources';

/** How many files the search tools return (as OpenHands' glob and grep). */
export const MAX_SEARCH_RESULTS = 100;

/** How many candidate files a search considers at most before it stops looking. */
export const MAX_SEARCH_CANDIDATES = 100_000;

export interface NewestFirst {
  files: string[];
  truncated: boolean;
}

/**
 * The `limit` most recently modified of `paths` (absolute), newest first; equal times are ordered by path so
 * that results do not depend on the order files were found in. Files that vanished are dropped.
 */
export async function newestFirst(paths: readonly string[], limit = MAX_SEARCH_RESULTS): Promise<NewestFirst> {
  const stamped = await mapLimit(paths, 32, async (path) => {
    try {
      return { path, mtime: (await stat(path)).mtimeMs };
    } catch {
      return undefined;
    }
  });
  const present = stamped.filter((entry) => entry !== undefined);
  present.sort((a, b) => b.mtime - a.mtime || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files: present.slice(0, limit).map((entry) => entry.path), truncated: present.length > limit };
}
