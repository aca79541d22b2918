import { type KeyObject, sign } from 'node:crypto';

/** How long an app JWT lasts (GitHub takes at most 10 minutes). */
const LIFETIME_S = 9 * 60;
/** How far back it is dated, for the provider's clock being behind ours (GitHub's advice: 60 s). */
const CLOCK_SKEW_S = 60;

const base64url = (data: Buffer | string) => Buffer.from(data).toString('base64url');

/**
 * The JWT a GitHub App authenticates as itself with (RS256, signed with its private key): issued by the app (its
 * ID, or its client ID), dated a minute back and valid nine minutes. Asks only for what the app itself may:
 * its installations and their access tokens.
 */
export function appJwt(issuer: string, key: KeyObject, nowMs: number = Date.now()): string {
  const now = Math.floor(nowMs / 1000);
  const header = base64url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }));
  const claims = base64url(JSON.stringify({ iat: now - CLOCK_SKEW_S, exp: now + LIFETIME_S, iss: issuer }));
  const signature = sign('sha256', Buffer.from(`${header}.${claims}`), key);
  return `${header}.${claims}.${base64url(signature)}`;
}
