import { join } from 'node:path';
import type { GlobMatcher } from '@bosun/sources';
import { MAX_SEARCH_CANDIDATES } from '../shared/newest-first.ts';
import { RIPGREP_COMMON_ARGS, RIPGREP_EXCLUSIONS, runRipgrep } from '../shared/ripgrep.ts';
import { walkFiles } from '../shared/walk.ts';
import { ToolInputError } from '../workspace-path.ts';

/** The files below `directory` that `matcher` selects (absolute paths, unordered), found by walking in Node. */
export async function globWithNode(matcher: GlobMatcher, directory: string, signal?: AbortSignal): Promise<string[]> {
  const files: string[] = [];
  const walk = walkFiles(directory, { signal, excludeDirectory: (path) => matcher.excludesDirectory(path) });
  for await (const file of walk) {
    if (!matcher.selectsFile(file.relative)) continue;
    files.push(file.absolute);
    if (files.length >= MAX_SEARCH_CANDIDATES) break;
  }
  return files;
}

/** The same, listed by `rg --files --glob`. */
export async function globWithRipgrep(
  binary: string,
  pattern: string,
  directory: string,
  signal?: AbortSignal,
): Promise<string[]> {
  const args = [...RIPGREP_COMMON_ARGS, '--files', '--glob', pattern, ...RIPGREP_EXCLUSIONS];
  const result = await runRipgrep(binary, args, directory, MAX_SEARCH_CANDIDATES, signal);
  if (!result.ok) throw new ToolInputError(`The file search failed: ${result.error}`);
  return result.lines.map((line) => join(directory, line));
}
