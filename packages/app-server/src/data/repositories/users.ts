import type { Kysely, Selectable } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import { EmailTakenError } from '../errors.ts';
import type { Tables, UsersTable } from '../tables.ts';
import { nowIso } from '../tokens.ts';
import { isUniqueViolation } from './constraints.ts';
import { countRows } from './count.ts';

export type User = Selectable<UsersTable>;

export interface NewUser {
  email?: string | null;
  name?: string | null;
}

/** The owner of an embedded install and whether this call created them. */
export interface InstanceOwner {
  user: User;
  created: boolean;
}

/** Raised inside a transaction to roll it back when another process created the owner first. */
class OwnerExists extends Error {}

export class UsersRepository {
  constructor(private readonly db: Kysely<Tables>) {}

  /** A new user; an email already used (compared case-insensitively) is an EmailTakenError. */
  async create(profile: NewUser = {}): Promise<User> {
    return insertUser(this.db, profile);
  }

  async get(id: string): Promise<User | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async byEmail(email: string): Promise<User | undefined> {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
      .executeTakeFirst();
  }

  async count(): Promise<number> {
    return countRows(this.db.selectFrom('users'));
  }

  /** The owner of the install, if there is one yet. */
  async owner(): Promise<User | undefined> {
    return this.db
      .selectFrom('instance_owner')
      .innerJoin('users', 'users.id', 'instance_owner.user_id')
      .selectAll('users')
      .executeTakeFirst();
  }

  /**
   * The owner of the install, created with `profile` if there is none: exactly one owner even when the server and
   * `bosun api-key create` start on a new data directory at the same time.
   */
  async ensureOwner(profile: NewUser = {}): Promise<InstanceOwner> {
    const existing = await this.owner();
    if (existing) return { user: existing, created: false };
    try {
      const user = await this.db.transaction().execute(async (trx) => {
        const created = await insertUser(trx, profile);
        const claimed = await trx
          .insertInto('instance_owner')
          .values({ singleton: 1, user_id: created.id })
          .onConflict((oc) => oc.column('singleton').doNothing())
          .executeTakeFirst();
        if (Number(claimed.numInsertedOrUpdatedRows ?? 0) === 0) throw new OwnerExists();
        return created;
      });
      return { user, created: true };
    } catch (error) {
      if (!(error instanceof OwnerExists) && !(error instanceof EmailTakenError)) throw error;
      const owner = await this.owner();
      if (!owner) throw error;
      return { user: owner, created: false };
    }
  }
}

/** Inserts a new user (in `db`, which may be a transaction); an email already used is an EmailTakenError. */
export async function insertUser(db: Kysely<Tables>, profile: NewUser): Promise<User> {
  const user: User = { id: uuidv7(), email: profile.email ?? null, name: profile.name ?? null, created_at: nowIso() };
  try {
    await db.insertInto('users').values(user).execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw new EmailTakenError();
    throw error;
  }
  return user;
}
