import { ObjectKeyError } from './object-store.ts';

/** S3's own limit, kept on disk too so that a key valid on one store is valid on the other. */
export const MAX_KEY_BYTES = 1024;
/** The longest file name most file systems allow, kept on S3 too for the same reason. */
export const MAX_SEGMENT_BYTES = 255;

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused.
const FORBIDDEN_CHARACTER = /[\u0000-\u001f\u007f\\]/;

/** A key as errors show it: long keys are cut, so that an error never carries a megabyte of input. */
function shown(key: string): string {
  return JSON.stringify(key.length > 100 ? `${key.slice(0, 100)}…` : key);
}

function problemWith(text: string, isPrefix: boolean): string | undefined {
  if (typeof text !== 'string') return 'it is not a string';
  if (!isPrefix && text.length === 0) return 'it is empty';
  if (Buffer.byteLength(text) > MAX_KEY_BYTES) return `it is longer than ${MAX_KEY_BYTES} bytes`;
  if (text.startsWith('/')) return 'it starts with "/"';
  if (FORBIDDEN_CHARACTER.test(text)) return 'it contains a control character or "\\"';
  const segments = text.split('/');
  // A prefix may end inside a segment ("logs/2026-") or after a "/": only its complete segments are checked.
  const complete = isPrefix ? segments.slice(0, -1) : segments;
  for (const segment of complete) {
    if (segment === '') return 'it has an empty segment ("//" or a trailing "/")';
    if (segment === '.' || segment === '..') return `it has a "${segment}" segment`;
    if (Buffer.byteLength(segment) > MAX_SEGMENT_BYTES)
      return `it has a segment longer than ${MAX_SEGMENT_BYTES} bytes`;
  }
  return undefined;
}

export function checkObjectKey(key: string): void {
  const problem = problemWith(key, false);
  if (problem) throw new ObjectKeyError(`Invalid object key ${shown(String(key))}: ${problem}`);
}

export function checkObjectPrefix(prefix: string): void {
  const problem = problemWith(prefix, true);
  if (problem) throw new ObjectKeyError(`Invalid object key prefix ${shown(String(prefix))}: ${problem}`);
}
