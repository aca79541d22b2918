import { readdir, stat } from 'node:fs/promises';
import { relative, sep } from 'node:path';
import type { PluginProblem } from '@bosun/protocol';
import { pathInside } from '../git/index.ts';
import { error } from './problems.ts';

/** A plugin being read: its directory, its manifest (as problems name it) and the problems found so far. */
export interface PluginReading {
  root: string;
  manifestPath: string | null;
  problems: PluginProblem[];
}

/**
 * `root/path` for a path the manifest names, if it stays inside the plugin (no absolute path, `..` or symbolic
 * link out); else a problem of the manifest.
 */
export async function insidePlugin(plugin: PluginReading, path: string): Promise<string | null> {
  try {
    return await pathInside(plugin.root, path);
  } catch (e) {
    plugin.problems.push(
      error(plugin.manifestPath, `${(e as Error).message.replace('repository', 'plugin')}; ignored`),
    );
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
