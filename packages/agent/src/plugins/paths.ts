import { readdir, stat } from 'node:fs/promises';
import { relative, sep } from 'node:path';
import type { PluginProblem } from '@bosun/protocol';
import { pathInside } from '../git/index.ts';
import { error } from './problems.ts';

/** `root/path` if it stays inside `root` (no absolute path, `..` or symbolic link out); else a problem. */
export async function insidePlugin(
  root: string,
  path: string,
  where: string | null,
  problems: PluginProblem[],
): Promise<string | null> {
  try {
    return await pathInside(root, path);
  } catch (e) {
    problems.push(error(where, `${(e as Error).message.replace('repository', 'plugin')}; ignored`));
    return null;
  }
}

/** `path` relative to `root`, with `/` separators (how problems and listings name files). */
export function relativeTo(root: string, path: string): string {
  return relative(root, path).split(sep).join('/') || '.';
}

export async function kindOf(path: string): Promise<'file' | 'directory' | null> {
  try {
    const info = await stat(path);
    return info.isDirectory() ? 'directory' : info.isFile() ? 'file' : null;
  } catch {
    return null;
  }
}

/** Names in a directory, sorted (so listings and merge orders are stable); none when it cannot be read. */
export async function sortedEntries(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return names.sort();
}
