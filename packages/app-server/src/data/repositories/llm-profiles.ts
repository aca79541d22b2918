import { randomUUID } from 'node:crypto';
import { type Kysely, type Selectable, type Transaction, sql } from 'kysely';
import { DataConflictError } from '../errors.ts';
import type { Dialect } from '../migrations/index.ts';
import { bindings } from '../sealed-rows.ts';
import type { KeyRing } from '../secret-cipher.ts';
import type { LlmProfilesTable, Tables } from '../tables.ts';
import { nowIso } from '../tokens.ts';
import { countRows } from './count.ts';
import { OwnedRows } from './owned-rows.ts';
import type { TransactionWrite } from './settings.ts';

/** The most profiles one user keeps: saving one more is a conflict (409). */
export const MAX_LLM_PROFILES = 50;

/** An LLM configuration as a profile holds it (the key in clear: only for the user's own conversations). */
export interface LlmProfileConfig {
  model: string;
  base_url: string | null;
  api_key: string | null;
}

/** A profile as listed: never its key, only whether it has one. */
export interface LlmProfileInfo {
  id: string;
  name: string;
  model: string;
  base_url: string | null;
  api_key_set: boolean;
  active: boolean;
  created_at: string;
  updated_at: string;
}

/** A profile with its key in clear. */
export type LlmProfile = LlmProfileInfo & LlmProfileConfig;

/** What a save stores: `api_key` undefined keeps the stored key of a profile saved again (none for a new one). */
export type LlmProfileSave = Omit<LlmProfileConfig, 'api_key'> & { api_key?: string | null };

/** The user has as many profiles as they may: saving a new one would exceed the bound. */
export class LlmProfileLimitError extends DataConflictError {
  constructor() {
    super(`you have ${MAX_LLM_PROFILES} LLM profiles, the most one user keeps: delete one first`);
  }
}

/** The user already has a profile by the new name. */
export class LlmProfileNameTakenError extends DataConflictError {
  constructor(readonly profileName: string) {
    super(`an LLM profile named ${profileName} already exists`);
  }
}

/** The profile was renamed, changed or deleted while it was being activated. */
export class LlmProfileChangedError extends DataConflictError {
  constructor() {
    super('the profile changed while it was activated: try again');
  }
}

type Row = Selectable<LlmProfilesTable>;
const profilesOf = (db: Kysely<Tables>) => new OwnedRows(db, 'llm_profiles', 'name');

/** What a profile's `sealed` holds: its secrets, as one JSON object. */
interface SealedSecrets {
  api_key: string | null;
}

/** Each user's LLM profiles, unique by name; the key of each sealed and bound to its row. */
export class LlmProfilesRepository {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly dialect: Dialect,
    private readonly keyRing: KeyRing,
  ) {}

  /** The user's profiles by name (code point order). */
  async list(userId: string): Promise<LlmProfileInfo[]> {
    const rows = await this.db
      .selectFrom('llm_profiles')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('name')
      .execute();
    return rows.map((row) => infoOf(row, this.secretsOf(row)));
  }

  /** One of the user's profiles with its key in clear, or undefined (another user's too). */
  async get(userId: string, name: string): Promise<LlmProfile | undefined> {
    const row = await profilesOf(this.db).get(userId, name);
    if (!row) return undefined;
    const secrets = this.secretsOf(row);
    return { ...infoOf(row, secrets), api_key: secrets.api_key };
  }

  /**
   * Stores the profile under `name`: a new one (LlmProfileLimitError beyond the bound), or the user's profile of
   * that name overwritten (its key kept when `api_key` is undefined). Answers whether it was created.
   */
  async save(userId: string, name: string, config: LlmProfileSave): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      await this.lockUser(trx, userId);
      const current = await profilesOf(trx).get(userId, name);
      const now = nowIso();
      if (current) {
        const api_key = config.api_key === undefined ? this.secretsOf(current).api_key : config.api_key;
        await trx
          .updateTable('llm_profiles')
          .set({ model: config.model, base_url: config.base_url, ...this.seal(userId, current.id, { api_key }) })
          .set('updated_at', now)
          .where('id', '=', current.id)
          .execute();
        return false;
      }
      const owned = trx.selectFrom('llm_profiles').where('user_id', '=', userId);
      if ((await countRows(owned)) >= MAX_LLM_PROFILES) throw new LlmProfileLimitError();
      const id = randomUUID();
      const { model, base_url } = config;
      const secrets = this.seal(userId, id, { api_key: config.api_key ?? null });
      const row = {
        id,
        user_id: userId,
        name,
        model,
        base_url,
        ...secrets,
        active: 0,
        created_at: now,
        updated_at: now,
      };
      await trx.insertInto('llm_profiles').values(row).execute();
      return true;
    });
  }

  /** Deletes the user's profile; false when they have none by this name. */
  delete(userId: string, name: string): Promise<boolean> {
    return profilesOf(this.db).delete(userId, name);
  }

  /**
   * Renames the user's profile (its key, and whether it is active, go with it); false when they have none by
   * `name`, LlmProfileNameTakenError when another of theirs has `newName`.
   */
  async rename(userId: string, name: string, newName: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      await this.lockUser(trx, userId);
      const current = await profilesOf(trx).pick(userId, name, ['id']);
      if (!current) return false;
      if (newName === name) return true;
      if (await profilesOf(trx).pick(userId, newName, ['id'])) throw new LlmProfileNameTakenError(newName);
      await trx
        .updateTable('llm_profiles')
        .set({ name: newName, updated_at: nowIso() })
        .where('id', '=', current.id)
        .execute();
      return true;
    });
  }

  /**
   * The write that makes `profile` the user's active one (and no other), in the transaction that gives the
   * settings its LLM: LlmProfileChangedError (the transaction rolls back) when its LLM is no longer the one read.
   */
  markActive(userId: string, profile: LlmProfile): TransactionWrite {
    return async (trx) => {
      const row = await trx
        .selectFrom('llm_profiles')
        .selectAll()
        .where('id', '=', profile.id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (!row || !sameLlm(profile, { ...row, api_key: this.secretsOf(row).api_key })) {
        throw new LlmProfileChangedError();
      }
      await trx
        .updateTable('llm_profiles')
        .set({ active: sql<number>`case when id = ${profile.id} then 1 else 0 end` })
        .where('user_id', '=', userId)
        .execute();
    };
  }

  /**
   * The write, in a transaction that changes the settings' LLM, that ends the active profile unless `stillActive`
   * says the new LLM is still the profile's.
   */
  keepActiveIf(userId: string, stillActive: (profile: LlmProfile) => boolean): TransactionWrite {
    return async (trx) => {
      const row = await trx
        .selectFrom('llm_profiles')
        .selectAll()
        .where('user_id', '=', userId)
        .where('active', '=', 1)
        .executeTakeFirst();
      if (!row) return;
      const secrets = this.secretsOf(row);
      if (stillActive({ ...infoOf(row, secrets), api_key: secrets.api_key })) return;
      await trx.updateTable('llm_profiles').set({ active: 0 }).where('id', '=', row.id).execute();
    };
  }

  /** On PostgreSQL, holds the user's row until the transaction ends: one profile write of a user at a time. */
  private async lockUser(trx: Transaction<Tables>, userId: string): Promise<void> {
    if (this.dialect === 'postgres') await sql`select id from users where id = ${userId} for update`.execute(trx);
  }

  private seal(userId: string, id: string, secrets: SealedSecrets): { key_id: string; sealed: string } {
    const { keyId, sealed } = this.keyRing.seal(bindings.llm_profiles(userId, id), JSON.stringify(secrets));
    return { key_id: keyId, sealed };
  }

  private secretsOf(row: Row): SealedSecrets {
    return JSON.parse(this.keyRing.open(bindings.llm_profiles(row.user_id, row.id), row.sealed)) as SealedSecrets;
  }
}

const infoOf = (row: Row, secrets: SealedSecrets): LlmProfileInfo => ({
  id: row.id,
  name: row.name,
  model: row.model,
  base_url: row.base_url,
  api_key_set: secrets.api_key !== null,
  active: row.active === 1,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

const sameLlm = (a: LlmProfileConfig, b: LlmProfileConfig) =>
  a.model === b.model && a.base_url === b.base_url && a.api_key === b.api_key;
