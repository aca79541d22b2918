import { createHash } from 'node:crypto';
import { type KeyRing, sealBinding } from '../../data/secret-cipher.ts';
import { httpOnlyCookie } from '../credentials.ts';

/** The cookies that carry a browser's logins under way, from the login route to the callback: one per state. */
export const PENDING_LOGIN_COOKIE_PREFIX = 'bosun_oidc_login_';
/** How long a login may stay at the issuer before its callback is refused. */
export const PENDING_LOGIN_TTL_MS = 10 * 60_000;
/** Logins one browser keeps under way at once (tabs): starting one more ends the oldest. */
export const MAX_PENDING_LOGINS = 5;
const COOKIE_PATH = '/api/v1/auth';
const BINDING = sealBinding('oidc_login', '');
const OWN_NAME = new RegExp(`^${PENDING_LOGIN_COOKIE_PREFIX}[A-Za-z0-9_-]{22}$`);

/** What the callback needs to finish a login the same browser started, on whichever replica it lands. */
export interface PendingLogin {
  state: string;
  nonce: string;
  codeVerifier: string;
  /** The same-origin path the browser goes to once signed in. */
  returnTo: string;
  /** When the login stops being accepted (ms since the epoch). */
  expiresAt: number;
  /** The identity provider the login was sent to (`kc_idp_hint`), if any. */
  provider?: string;
}

/** The name of the cookie of the login whose state is `state` (a digest: the state itself is not repeated). */
export function pendingLoginCookieName(state: string): string {
  return `${PENDING_LOGIN_COOKIE_PREFIX}${createHash('sha256').update(state).digest('base64url').slice(0, 22)}`;
}

/**
 * The pending login, sealed with the app's key ring (AES-256-GCM, bound to its purpose) into a cookie named after
 * its state: the browser holds it (every replica with the same secrets key opens it, no shared store is written),
 * cannot read or change it, and a login is bound to the browser that started it: a callback URL sent to someone
 * else finds no cookie. One cookie per state lets logins started in several tabs each finish.
 */
export function pendingLoginCookie(keyRing: KeyRing, login: PendingLogin, secure: boolean): string {
  const { sealed } = keyRing.seal(BINDING, JSON.stringify(login));
  return httpOnlyCookie(pendingLoginCookieName(login.state), sealed, {
    path: COOKIE_PATH,
    maxAgeSeconds: Math.ceil(PENDING_LOGIN_TTL_MS / 1000),
    secure,
  });
}

/** The `Set-Cookie` value that ends the pending login of cookie `name` in the browser. */
export function clearedPendingLoginCookie(name: string, secure: boolean): string {
  return httpOnlyCookie(name, '', { path: COOKIE_PATH, maxAgeSeconds: 0, secure });
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
  if (login.provider !== undefined && typeof login.provider !== 'string') return undefined;
  return login as PendingLogin;
}

/**
 * The names of the pending-login cookies of a `Cookie` header to end before one more login starts: those that no
 * longer open (expired, damaged), then the oldest beyond `MAX_PENDING_LOGINS - 1`, so the browser holds at most
 * `MAX_PENDING_LOGINS` with the new one.
 */
export function pendingLoginsToEnd(keyRing: KeyRing, header: string | undefined): string[] {
  const live: { name: string; expiresAt: number }[] = [];
  const ended: string[] = [];
  for (const part of header?.split(';') ?? []) {
    const separator = part.indexOf('=');
    const name = part.slice(0, separator).trim();
    if (separator < 0 || !OWN_NAME.test(name)) continue;
    const login = openPendingLogin(keyRing, part.slice(separator + 1).trim());
    if (login && pendingLoginCookieName(login.state) === name) live.push({ name, expiresAt: login.expiresAt });
    else ended.push(name);
  }
  live.sort((a, b) => a.expiresAt - b.expiresAt);
  const excess = Math.max(0, live.length - (MAX_PENDING_LOGINS - 1));
  return [...ended, ...live.slice(0, excess).map(({ name }) => name)];
}
