import { randomBytes } from 'node:crypto';

/** A new session key: 32 random bytes, base64url (no character a header, a URL or a comma-list would mangle). */
export function newSessionKey(): string {
  return randomBytes(32).toString('base64url');
}
