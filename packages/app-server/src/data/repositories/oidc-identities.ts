import type { Kysely } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import type { Tables } from '../tables.ts';
import { nowIso } from '../tokens.ts';
import { isUniqueViolation } from './constraints.ts';
import { type NewUser, type User, insertUser } from './users.ts';

/** An account at an OpenID Connect issuer: the issuer's URL and the account's `sub` there. */
export interface OidcAccount {
  issuer: string;
  subject: string;
}

/** Raised inside a transaction to roll it back when a concurrent sign-in of the same account made its user first. */
class AccountTaken extends Error {}

/**
 * Which user each issuer account signs in. An account is linked once: a second link or first sign-in of the same
 * account, even concurrent, answers the user it was linked to first.
 */
export class OidcIdentitiesRepository {
  constructor(private readonly db: Kysely<Tables>) {}

  /** The user `account` signs in, if it signed in before. */
  async userOf(account: OidcAccount): Promise<User | undefined> {
    return this.db
      .selectFrom('oidc_identities')
      .innerJoin('users', 'users.id', 'oidc_identities.user_id')
      .selectAll('users')
      .where('oidc_identities.issuer', '=', account.issuer)
      .where('oidc_identities.subject', '=', account.subject)
      .executeTakeFirst();
  }

  /** Links `account` to the existing user `userId`; answers the user it signs in. */
  async link(userId: string, account: OidcAccount): Promise<User> {
    try {
      await insertAccount(this.db, userId, account);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
    return this.signedInBy(account);
  }

  /**
   * A new user made with `profile` for `account` (an e-mail already another user's is an EmailTakenError), or the
   * user a concurrent first sign-in of the same account made.
   */
  async createUser(account: OidcAccount, profile: NewUser): Promise<User> {
    try {
      return await this.db.transaction().execute(async (trx) => {
        const user = await insertUser(trx, profile);
        try {
          await insertAccount(trx, user.id, account);
        } catch (error) {
          throw isUniqueViolation(error) ? new AccountTaken() : error;
        }
        return user;
      });
    } catch (error) {
      if (!(error instanceof AccountTaken)) throw error;
      return this.signedInBy(account);
    }
  }

  /** The accounts linked to `userId`. */
  async accountsOf(userId: string): Promise<OidcAccount[]> {
    return this.db
      .selectFrom('oidc_identities')
      .select(['issuer', 'subject'])
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .execute();
  }

  private async signedInBy(account: OidcAccount): Promise<User> {
    const user = await this.userOf(account);
    if (!user) throw new Error(`the account ${account.subject} of ${account.issuer} vanished while being linked`);
    return user;
  }
}

async function insertAccount(db: Kysely<Tables>, userId: string, account: OidcAccount): Promise<void> {
  await db
    .insertInto('oidc_identities')
    .values({ id: uuidv7(), user_id: userId, ...account, created_at: nowIso() })
    .execute();
}
