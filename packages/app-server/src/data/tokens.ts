import { createHash, randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 43 base62 characters carry more than 256 bits. */
export const TOKEN_CHARS = 43;

/** `length` uniformly random base62 characters (bytes that would bias the alphabet are skipped). */
export function randomBase62(length = TOKEN_CHARS): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

/** What is stored for a token: its SHA-256, in hex. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Now, as stored: ISO-8601 UTC with milliseconds. */
export function nowIso(): string {
  return new Date().toISOString();
}

/** The instant `ms` milliseconds from now, as stored. */
export function isoAfter(ms: number): string {
  return new Date(Date.now() + ms).toISOString();
}
