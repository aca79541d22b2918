import { opendir } from 'node:fs/promises';
import { join } from 'node:path';

/** Directories no search descends into (besides hidden ones). */
export const SKIPPED_DIRECTORIES: ReadonlySet<string> = new Set(['node_modules']);

export interface WalkOptions {
  /** Stops the walk (the generator throws an `AbortError`). */
  signal?: AbortSignal;
  /** Whether to leave out the directory at `path` (relative, `/`-separated) with everything below it. */
  excludeDirectory?(path: string): boolean;
}

export interface WalkedFile {
  /** Relative to the walked root, `/`-separated. */
  relative: string;
  absolute: string;
}

/**
 * Every regular file below `root`, as ripgrep walks by default: hidden files and directories (name starting
 * with `.`) and `node_modules` are skipped, symbolic links are not followed, unreadable directories are
 * passed over. The order is unspecified.
 */
export async function* walkFiles(root: string, options: WalkOptions = {}): AsyncGenerator<WalkedFile> {
  const pending: Array<{ absolute: string; relative: string }> = [{ absolute: root, relative: '' }];
  while (pending.length > 0) {
    options.signal?.throwIfAborted();
    const directory = pending.pop()!;
    let entries: Awaited<ReturnType<typeof opendir>>;
    try {
      entries = await opendir(directory.absolute);
    } catch {
      continue;
    }
    for await (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const relative = directory.relative ? `${directory.relative}/${entry.name}` : entry.name;
      const absolute = join(directory.absolute, entry.name);
      if (entry.isDirectory()) {
        if (SKIPPED_DIRECTORIES.has(entry.name) || options.excludeDirectory?.(relative)) continue;
        pending.push({ absolute, relative });
      } else if (entry.isFile()) {
        yield { relative, absolute };
      }
    }
  }
}
