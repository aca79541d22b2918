import { join } from 'node:path';
import { mapLimit } from '@bosun/sources';
import type { GlobMatcher } from '@bosun/sources';
import { MAX_SEARCH_CANDIDATES } from '../shared/newest-first.ts';
import { RIPGREP_COMMON_ARGS, RIPGREP_EXCLUSIONS, runRipgrep } from '../shared/ripgrep.ts';
import { decodeText, readBytes } from '../shared/text-file.ts';
import { walkFiles } from '../shared/walk.ts';
import { ToolInputError } from '../workspace-path.ts';

/** A file with a NUL byte this early is binary and not searched (ripgrep looks at its first 64 KiB buffer). */
const BINARY_WINDOW = 64 * 1024;
/** Files larger than this are not searched by the Node implementation. */
const MAX_SEARCHED_BYTES = 64 * 1024 * 1024;

/** The regular expression the search uses: case-insensitive, as OpenHands' grep (`rg -i`). */
export function grepRegExp(pattern: string): RegExp {
  try {
    return new RegExp(pattern, 'im');
  } catch (error) {
    throw new ToolInputError(`Invalid regex pattern: ${(error as Error).message}`);
  }
}

/**
 * Whether some line of the file at `path` matches `regexp`, ripgrep style: binary files never match, and a
 * match never spans lines.
 */
export async function fileMatches(path: string, regexp: RegExp): Promise<boolean> {
  let bytes: Uint8Array;
  try {
    bytes = await readBytes(path, MAX_SEARCHED_BYTES);
  } catch {
    return false;
  }
  const nul = bytes.indexOf(0);
  if (nul !== -1) {
    if (nul < BINARY_WINDOW) return false;
    bytes = bytes.subarray(0, nul);
  }
  const text = decodeText(bytes);
  if (!regexp.test(text)) return false;
  return text.split('\n').some((line) => regexp.test(line));
}

/** The files below `directory` (selected by `include`, when given) with a line matching `regexp`. */
export async function grepWithNode(
  regexp: RegExp,
  include: GlobMatcher | undefined,
  directory: string,
  signal?: AbortSignal,
): Promise<string[]> {
  const candidates: string[] = [];
  const walk = walkFiles(directory, { signal, excludeDirectory: (path) => include?.excludesDirectory(path) ?? false });
  for await (const file of walk) {
    if (include && !include.selectsFile(file.relative)) continue;
    candidates.push(file.absolute);
    if (candidates.length >= MAX_SEARCH_CANDIDATES) break;
  }
  const matched = await mapLimit(candidates, 16, async (path) => {
    signal?.throwIfAborted();
    return (await fileMatches(path, regexp)) ? path : undefined;
  });
  return matched.filter((path) => path !== undefined);
}

export type RipgrepGrep = { ok: true; files: string[] } | { ok: false; error: string; regexError: boolean };

/** The same, found by `rg --files-with-matches --ignore-case`. */
export async function grepWithRipgrep(
  binary: string,
  pattern: string,
  include: string | undefined,
  directory: string,
  signal?: AbortSignal,
): Promise<RipgrepGrep> {
  const args = [
    ...RIPGREP_COMMON_ARGS,
    '--files-with-matches',
    '--ignore-case',
    '--regexp',
    pattern,
    ...(include ? ['--glob', include] : []),
    ...RIPGREP_EXCLUSIONS,
  ];
  const result = await runRipgrep(binary, args, directory, MAX_SEARCH_CANDIDATES, signal);
  if (!result.ok) return result;
  return { ok: true, files: result.lines.map((line) => join(directory, line)) };
}
