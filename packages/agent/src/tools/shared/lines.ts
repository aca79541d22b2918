/**
 * Line helpers shared by the file tools. A file's lines are what `\n` separates; a final newline ends the last
 * line rather than starting an empty one, so `"a\nb\n"` and `"a\nb"` both have 2 lines and `""` has none.
 */

export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  return lines.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}

export function countLines(text: string): number {
  if (text === '') return 0;
  let count = 0;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) count++;
  return text.endsWith('\n') ? count : count + 1;
}

/** The 1-based line on which the character at `index` stands. */
export function lineNumberAt(text: string, index: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < index; at = text.indexOf('\n', at + 1)) line++;
  return line;
}

/** `cat -n` style: each line prefixed with its number right-aligned in 6 columns and a tab. */
export function numberLines(lines: readonly string[], firstLineNumber = 1): string {
  return lines.map((line, index) => `${String(index + firstLineNumber).padStart(6)}\t${line}`).join('\n');
}

/** The character offset just after line `line` (1-based) ends, its newline included; 0 for line 0. */
export function offsetAfterLine(text: string, line: number): number {
  let offset = 0;
  for (let count = 0; count < line; count++) {
    const newline = text.indexOf('\n', offset);
    if (newline === -1) return text.length;
    offset = newline + 1;
  }
  return offset;
}

/** The line ending a file uses: `\r\n` when it has any, else `\n`. */
export function lineEnding(text: string): '\n' | '\r\n' {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

/** Lines `first`..`last` (1-based, inclusive, clamped to the file) of `text`, numbered `cat -n` style. */
export function numberedRange(text: string, first: number, last: number): string {
  const lines = splitLines(text);
  const from = Math.max(1, first);
  const to = Math.min(lines.length, last);
  if (to < from) return '';
  return numberLines(lines.slice(from - 1, to), from);
}
