/**
 * Base64 without `Buffer` (launch links are read in browsers too): standard on the way out, lenient on the way in.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const VALUE = new Map([...ALPHABET].map((char, index) => [char, index]));

/** Standard base64 with padding. */
export function toBase64(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i] as number;
    const b = bytes[i + 1];
    const c = bytes[i + 2];
    const n = (a << 16) | ((b ?? 0) << 8) | (c ?? 0);
    out += ALPHABET[(n >> 18) & 63];
    out += ALPHABET[(n >> 12) & 63];
    out += b === undefined ? '=' : ALPHABET[(n >> 6) & 63];
    out += c === undefined ? '=' : ALPHABET[n & 63];
  }
  return out;
}

/**
 * The bytes of standard or URL-safe base64, padding optional. A space stands for a `+` (a query string decoder
 * turned it into one); line breaks are ignored. A message says what is wrong with text that is not base64.
 */
export function fromBase64(text: string): Uint8Array | string {
  const cleaned = text
    .replace(/[\r\n\t]/g, '')
    .replace(/ /g, '+')
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .replace(/=+$/, '');
  const bad = [...cleaned].findIndex((char) => !VALUE.has(char));
  if (bad >= 0) return `not base64: unexpected character ${JSON.stringify(cleaned[bad])} at ${bad}`;
  if (cleaned.length % 4 === 1) return 'not base64: its length is one character too long or short';
  const bytes = new Uint8Array(Math.floor((cleaned.length * 3) / 4));
  let filled = 0;
  for (let i = 0; i < cleaned.length; i += 4) {
    const digits = [0, 1, 2, 3].map((k) => VALUE.get(cleaned[i + k] ?? 'A') as number);
    const n = ((digits[0] as number) << 18) | ((digits[1] as number) << 12) | ((digits[2] as number) << 6);
    const all = n | (digits[3] as number);
    const count = Math.min(3, cleaned.length - i - 1);
    const chunk = [(all >> 16) & 255, (all >> 8) & 255, all & 255];
    for (let k = 0; k < count; k += 1) bytes[filled++] = chunk[k] as number;
  }
  return bytes.subarray(0, filled);
}

/** How many bytes base64 text of this length decodes to, at most (to refuse a huge payload before decoding it). */
export function decodedSize(text: string): number {
  return Math.floor((text.replace(/=+$/, '').length * 3) / 4);
}
