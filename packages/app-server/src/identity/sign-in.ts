import type { SessionsStore, UsersStore } from './stores.ts';

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
  stores: { users: Pick<UsersStore, 'ensureOwner'>; sessions: Pick<SessionsStore, 'createSignInToken'> },
  publicUrl: string,
): Promise<string | undefined> {
  const { user, created } = await stores.users.ensureOwner();
  if (!created) return undefined;
  return signInUrl(stores.sessions, user.id, publicUrl);
}

/** A new one-time sign-in URL for `userId`. */
export async function signInUrl(
  sessions: Pick<SessionsStore, 'createSignInToken'>,
  userId: string,
  publicUrl: string,
): Promise<string> {
  const token = await sessions.createSignInToken(userId, SIGN_IN_TOKEN_TTL_MS);
  return `${publicUrl.replace(/\/+$/, '')}${SIGN_IN_PATH}?token=${encodeURIComponent(token)}`;
}
