import { type KeyRing, sealBinding } from '../../data/secret-cipher.ts';
import { httpOnlyCookie } from '../credentials.ts';

/** The cookie that carries a browser's login under way, from the login route to the callback. */
export const PENDING_LOGIN_COOKIE = 'bosun_oidc_login';
/** How long a login may stay at the issuer before its callback is refused. */
export const PENDING_LOGIN_TTL_MS = 10 * 60_000;
const COOKIE_PATH = '/api/v1/auth';
const BINDING = sealBinding('oidc_login', '');

/** What the callback needs to finish a login the same browser started, on whichever replica it lands. */
export interface PendingLogin {
  state: string;
  nonce: string;
  codeVerifier: string;
  /** The same-origin path the browser goes to once signed in. */
  returnTo: string;
  /** When the login stops being accepted (ms since the epoch). */
  expiresAt: number;
}

/**
 * The pending login, sealed with the app's key ring (AES-256-GCM, bound to its purpose) into a cookie: the browser
 * holds it (every replica with the same secrets key opens it, no shared store is written), cannot read or change
 * it, and a login is bound to the browser that started it: a callback URL sent to someone else finds no cookie.
 */
export function pendingLoginCookie(keyRing: KeyRing, login: PendingLogin, secure: boolean): string {
  const { sealed } = keyRing.seal(BINDING, JSON.stringify(login));
  return httpOnlyCookie(PENDING_LOGIN_COOKIE, sealed, {
    path: COOKIE_PATH,
    maxAgeSeconds: Math.ceil(PENDING_LOGIN_TTL_MS / 1000),
    secure,
  });
}

/** The `Set-Cookie` value that ends the pending login in the browser. */
export function clearedPendingLoginCookie(secure: boolean): string {
  return httpOnlyCookie(PENDING_LOGIN_COOKIE, '', { path: COOKIE_PATH, maxAgeSeconds: 0, secure });
}

/** The pending login of a cookie's value: undefined when absent, not sealed by this install, damaged or expired. */
export function openPendingLogin(
  keyRing: KeyRing,
  value: string | undefined,
  now = Date.now(),
): PendingLogin | undefined {
  if (!value) return undefined;
  let login: Partial<PendingLogin>;
  try {
    login = JSON.parse(keyRing.open(BINDING, value));
  } catch {
    return undefined;
  }
  const complete = ['state', 'nonce', 'codeVerifier', 'returnTo'].every(
    (key) => typeof login[key as keyof PendingLogin] === 'string',
  );
  if (!complete || typeof login.expiresAt !== 'number' || login.expiresAt <= now) return undefined;
  return login as PendingLogin;
}
