import { createHash, randomBytes } from 'node:crypto';
import { API_KEY_PREFIX } from '@bosun/protocol';

/** Bearer secrets: API keys, session tokens and sign-in tokens. Only their SHA-256 digests are ever stored. */

/** How many characters of a key are kept to recognise it in a list (the prefix and a few random ones). */
const DISPLAY_PREFIX_CHARS = API_KEY_PREFIX.length + 6;

export interface NewApiKey {
  /** The key: given to its owner once. */
  key: string;
  /** Its SHA-256 digest: what is stored and looked up. */
  hash: string;
  /** Its first characters, to recognise it in a list. */
  displayPrefix: string;
}

export function newApiKey(): NewApiKey {
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { key, hash: digestOf(key), displayPrefix: key.slice(0, DISPLAY_PREFIX_CHARS) };
}

/** A random token for a session cookie or a one-time sign-in URL. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function digestOf(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Whether `text` has the shape of a Bosun API key (anything else is not looked up). */
export function looksLikeApiKey(text: string): boolean {
  return text.startsWith(API_KEY_PREFIX) && text.length > API_KEY_PREFIX.length && text.length <= 200;
}
