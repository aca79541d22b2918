import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Terminal output as the LLM reads it: plain text without escape sequences, cut to a size an LLM can take,
 * with the full text kept in a file when it had to be cut.
 */

const ESC = '\\x1b';
/** CSI (`ESC [ ... final`), OSC (`ESC ] ... BEL|ST`), charset selection (`ESC ( B`) and two-character escapes. */
const ESCAPE_SEQUENCES = new RegExp(
  [
    `${ESC}\\[[0-?]*[ -/]*[@-~]`,
    `${ESC}\\][^\\x07\\x1b\\n]*(?:\\x07|${ESC}\\\\)?`,
    `${ESC}[()*+][0-9A-Za-z]`,
    `${ESC}[@-Z\\\\-_=>]?`,
    '\\x9b[0-?]*[ -/]*[@-~]',
  ].join('|'),
  'g',
);
/** C0 controls except tab and newline, DEL, and the C1 range. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point.
const CONTROL_CHARACTERS = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/**
 * Normalizes raw terminal output: escape sequences stripped, `\r\n` -> `\n`, a carriage return inside a line
 * keeps what was written after it (progress bars), other control characters removed.
 */
export function normalizeOutput(raw: string): string {
  const text = raw.replace(ESCAPE_SEQUENCES, '').replace(/\r+\n/g, '\n').replace(/\r+$/, '');
  const lines = text.includes('\r') ? text.split('\n').map(lastCarriageReturnSegment).join('\n') : text;
  return lines.replace(CONTROL_CHARACTERS, '');
}

function lastCarriageReturnSegment(line: string): string {
  const segments = line.split('\r').filter((segment) => segment.length > 0);
  return segments.at(-1) ?? '';
}

/** Where truncated outputs are saved, under the conversation's state directory. */
export function observationsDir(stateDir: string): string {
  return join(stateDir, 'observations');
}

/** Saves `text` to a new file in `dir` (created when missing) and returns its path. */
export async function saveFullOutput(dir: string, text: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '_').replace(/\..*$/, '');
  const path = join(dir, `terminal_output_${stamp}_${randomBytes(3).toString('hex')}.txt`);
  await writeFile(path, text, 'utf8');
  return path;
}

/**
 * Keeps the head and the tail of `text` within `maxChars` (plus the note), with a note in the middle that says
 * where the full text was saved (`savedPath`, when it could be saved) and at which line the cut begins.
 */
export function truncateMiddle(text: string, maxChars: number, savedPath: string | undefined): string {
  if (text.length <= maxChars) return text;
  const headChars = safeCut(text, Math.ceil(maxChars / 2));
  const tailStart = safeCut(text, text.length - Math.floor(maxChars / 2));
  const head = text.slice(0, headChars);
  const omittedFromLine = head.split('\n').length;
  const where = savedPath
    ? ` The complete output was saved to ${savedPath}; read it with other commands (for example \`sed -n\` or \`grep\`). The omitted part starts around line ${omittedFromLine}.`
    : '';
  const note = `\n<response clipped><NOTE>The output was too long: ${tailStart - headChars} characters in the middle were omitted.${where}</NOTE>\n`;
  return head + note + text.slice(tailStart);
}

/** Moves a cut index off the middle of a surrogate pair. */
function safeCut(text: string, index: number): number {
  const code = text.charCodeAt(index);
  return code >= 0xdc00 && code <= 0xdfff ? index + 1 : index;
}
