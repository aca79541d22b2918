import type { IncomingHttpHeaders } from 'node:http';

/** The name of the cookie that carries a browser's session. */
export const SESSION_COOKIE = 'bosun_session';

/** What a request presents to prove who it is: an API key (from a header) or a session token (from the cookie). */
export type Credential = { kind: 'api_key'; secret: string } | { kind: 'session'; secret: string };

/**
 * The credential of a request, looked for in OpenHands' order: `Authorization: Bearer`, `X-Session-API-Key`,
 * `X-Access-Token`, then the session cookie. The first header present is the one used, even if it is wrong: a
 * request never falls through to a weaker credential after presenting a bad one.
 */
export function credentialOf(headers: IncomingHttpHeaders): Credential | undefined {
  const authorization = headers.authorization;
  if (typeof authorization === 'string' && authorization.length > 0) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    return { kind: 'api_key', secret: match?.[1] ?? '' };
  }
  for (const name of ['x-session-api-key', 'x-access-token']) {
    const value = headers[name];
    if (typeof value === 'string' && value.length > 0) return { kind: 'api_key', secret: value.trim() };
  }
  const session = cookieValue(headers.cookie, SESSION_COOKIE);
  return session ? { kind: 'session', secret: session } : undefined;
}

/** The value of cookie `name` in a `Cookie` header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const separator = part.indexOf('=');
    if (separator < 0 || part.slice(0, separator).trim() !== name) continue;
    const value = part.slice(separator + 1).trim();
    return value.length > 0 ? value : undefined;
  }
  return undefined;
}

/** The `Set-Cookie` value of a session cookie: HttpOnly, SameSite=Lax, Secure when served over HTTPS. */
export function sessionCookie(token: string, options: { maxAgeSeconds: number; secure: boolean }): string {
  return httpOnlyCookie(SESSION_COOKIE, token, { ...options, path: '/' });
}

/**
 * The `Set-Cookie` value of a cookie scripts cannot read: HttpOnly, SameSite=Lax (sent on the top-level navigation
 * back from an issuer, not on cross-site requests), Secure when served over HTTPS.
 */
export function httpOnlyCookie(
  name: string,
  value: string,
  options: { path: string; maxAgeSeconds: number; secure: boolean },
): string {
  const attributes = [`${name}=${value}`, `Path=${options.path}`, 'HttpOnly', 'SameSite=Lax'];
  attributes.push(`Max-Age=${options.maxAgeSeconds}`);
  if (options.secure) attributes.push('Secure');
  return attributes.join('; ');
}
