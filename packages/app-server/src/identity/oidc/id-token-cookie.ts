import { createHash } from 'node:crypto';
import { type KeyRing, sealBinding } from '../../data/secret-cipher.ts';
import { cookieValue, httpOnlyCookie } from '../credentials.ts';

/**
 * The cookie that keeps the ID token of a browser's sign-in for its logout (`id_token_hint`, with which Keycloak
 * ends its session without asking). Sealed with the app's key ring and bound to the session it came with: it opens
 * only alongside that session's cookie, so a hint is never sent for another sign-in. Sent only to the logout route.
 */
export const ID_TOKEN_COOKIE = 'bosun_oidc_id_token';
const COOKIE_PATH = '/api/v1/auth/logout';
/** Above this a browser may drop the cookie (4096 bytes with its name and attributes): none is set, no hint sent. */
const MAX_SEALED_LENGTH = 3800;

const bindingOf = (sessionToken: string) =>
  sealBinding('oidc_id_token', '', createHash('sha256').update(sessionToken).digest('base64url'));

/** The `Set-Cookie` value keeping `idToken` with the session `sessionToken`; undefined when too large for a cookie. */
export function idTokenCookie(
  keyRing: KeyRing,
  idToken: string,
  sessionToken: string,
  options: { maxAgeSeconds: number; secure: boolean },
): string | undefined {
  const { sealed } = keyRing.seal(bindingOf(sessionToken), idToken);
  if (sealed.length > MAX_SEALED_LENGTH) return undefined;
  return httpOnlyCookie(ID_TOKEN_COOKIE, sealed, { path: COOKIE_PATH, ...options });
}

/** The `Set-Cookie` value that forgets the ID token. */
export function clearedIdTokenCookie(secure: boolean): string {
  return httpOnlyCookie(ID_TOKEN_COOKIE, '', { path: COOKIE_PATH, maxAgeSeconds: 0, secure });
}

/** The ID token a `Cookie` header keeps for the session `sessionToken`, or undefined (none, another's, damaged). */
export function idTokenOf(keyRing: KeyRing, header: string | undefined, sessionToken: string): string | undefined {
  const sealed = cookieValue(header, ID_TOKEN_COOKIE);
  if (!sealed) return undefined;
  try {
    return keyRing.open(bindingOf(sessionToken), sealed);
  } catch {
    return undefined;
  }
}
