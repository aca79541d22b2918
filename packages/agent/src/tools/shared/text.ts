/** How much text one observation may carry before it is truncated (as OpenHands' file editor). */
export const MAX_OUTPUT_CHARS = 16_000;

export const FILE_TRUNCATED_NOTICE =
  '<response clipped><NOTE>Due to the max output limit, only part of this file has been shown to you. ' +
  'Use `view_range` to see the rest, or search inside the file with `grep -n` to find the line numbers of ' +
  'what you are looking for.</NOTE>';

export const DIRECTORY_TRUNCATED_NOTICE =
  '<response clipped><NOTE>Due to the max output limit, only part of this directory has been shown to you. ' +
  'View its subdirectories one by one, or use `ls -la` to list large directories incrementally.</NOTE>';

export interface Truncated {
  text: string;
  truncated: boolean;
}

/**
 * Cuts `text` to at most `max` characters followed by `notice`. The cut falls after the last complete line
 * when there is one in the kept part, so numbered lines are never shown half.
 */
export function truncateText(text: string, max: number, notice: string): Truncated {
  if (text.length <= max) return { text, truncated: false };
  let end = max;
  const lastNewline = text.lastIndexOf('\n', max - 1);
  if (lastNewline > 0) end = lastNewline + 1;
  else if (isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
  const kept = text.slice(0, end);
  return { text: `${kept}${kept.endsWith('\n') ? '' : '\n'}${notice}`, truncated: true };
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** Start indexes of the non-overlapping occurrences of `search` (not empty) in `text`, left to right. */
export function findOccurrences(text: string, search: string): number[] {
  const found: number[] = [];
  for (let index = text.indexOf(search); index !== -1; index = text.indexOf(search, index + search.length)) {
    found.push(index);
  }
  return found;
}
