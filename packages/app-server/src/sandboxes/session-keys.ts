import { createHash, randomBytes } from 'node:crypto';

/** A new session key: 32 random bytes, base64url (no character a header, a URL or a comma-list would mangle). */
export function newSessionKey(): string {
  return randomBytes(32).toString('base64url');
}

/** What the database keeps of a session key. */
export function sessionKeyHash(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}
