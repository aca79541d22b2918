import type { IdentityStore } from './identity-store.ts';
import { digestOf, newToken } from './tokens.ts';

/** How long the one-time sign-in URL printed at first start works. */
export const SIGN_IN_TOKEN_TTL_MS = 24 * 60 * 60_000;
/** How long a browser session lasts. */
export const SESSION_TTL_MS = 30 * 24 * 60 * 60_000;

export const SIGN_IN_PATH = '/api/v1/auth/sign-in';

/**
 * Embedded mode's first start: makes the owner of the install and answers a one-time sign-in URL for them, as
 * Jupyter does; on later starts (an owner exists) answers undefined. `start.ts` prints the URL once.
 */
export async function prepareOwnerSignIn(
  store: IdentityStore,
  publicUrl: string,
  now = Date.now(),
): Promise<string | undefined> {
  const { owner, created } = await store.ensureInstanceOwner();
  if (!created) return undefined;
  return signInUrl(store, owner.id, publicUrl, now);
}

/** A new one-time sign-in URL for `userId`. */
export async function signInUrl(store: IdentityStore, userId: string, publicUrl: string, now = Date.now()) {
  const token = newToken();
  await store.createSignInToken(userId, digestOf(token), new Date(now + SIGN_IN_TOKEN_TTL_MS).toISOString());
  return `${publicUrl.replace(/\/+$/, '')}${SIGN_IN_PATH}?token=${token}`;
}

/** Exchanges a sign-in token (once) for a new session: answers the session token, or undefined. */
export async function signIn(store: IdentityStore, token: string, now = Date.now()) {
  const userId = await store.consumeSignInToken(digestOf(token), new Date(now).toISOString());
  if (!userId) return undefined;
  const session = newToken();
  await store.createSession(userId, digestOf(session), new Date(now + SESSION_TTL_MS).toISOString());
  return session;
}
