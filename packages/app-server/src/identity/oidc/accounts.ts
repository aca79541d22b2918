import { HttpError } from '@bosun/http';
import { EmailTakenError } from '../../data/errors.ts';
import type { Repositories, User } from '../../data/index.ts';

/** What the app reads of a validated ID token. */
export interface IssuerClaims {
  sub: string;
  email?: unknown;
  email_verified?: unknown;
  name?: unknown;
}

export type AccountStores = {
  users: Pick<Repositories['users'], 'byEmail'>;
  oidcIdentities: Pick<Repositories['oidcIdentities'], 'userOf' | 'link' | 'createUser'>;
};

const UNVERIFIED_COLLISION =
  'A Bosun account already uses this e-mail address, and the issuer does not say the address is verified: the ' +
  'sign-in is refused rather than linked. Verify the address at the issuer, or sign in as that account.';

/**
 * The user an issuer account signs in: the one it signed in before (by issuer and subject, never by e-mail), else
 * the user who has its e-mail address, linked only when the issuer says the address is verified (an unverified
 * address would let anyone who types it take over that account), else a new user. A new user gets the e-mail only
 * when verified: an unverified address never claims a user another account could later be linked to.
 */
export async function userOfAccount(stores: AccountStores, issuer: string, claims: IssuerClaims): Promise<User> {
  const account = { issuer, subject: claims.sub };
  const known = await stores.oidcIdentities.userOf(account);
  if (known) return known;
  const email = typeof claims.email === 'string' && claims.email.length > 0 ? claims.email : undefined;
  const verified = email !== undefined && claims.email_verified === true;
  const linkOrRefuse = async (holder: User) => {
    if (!verified) throw new HttpError(409, UNVERIFIED_COLLISION);
    return stores.oidcIdentities.link(holder.id, account);
  };
  const holder = email === undefined ? undefined : await stores.users.byEmail(email);
  if (holder) return linkOrRefuse(holder);
  const name = typeof claims.name === 'string' && claims.name.length > 0 ? claims.name.slice(0, 255) : null;
  try {
    return await stores.oidcIdentities.createUser(account, { email: verified ? email : null, name });
  } catch (error) {
    // Another user took the address between the look-up and the insert.
    const taken = error instanceof EmailTakenError && email !== undefined && (await stores.users.byEmail(email));
    if (taken) return linkOrRefuse(taken);
    throw error;
  }
}
