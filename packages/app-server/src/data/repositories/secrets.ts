import { type Kysely, sql } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import { SecretNameTakenError } from '../errors.ts';
import { type Page, decodePageId, pageOf } from '../pages.ts';
import { bindings } from '../sealed-rows.ts';
import type { KeyRing } from '../secret-cipher.ts';
import type { Tables } from '../tables.ts';
import { nowIso } from '../tokens.ts';
import { OwnedRows } from './owned-rows.ts';
import { containsText } from './text-search.ts';

/** A custom secret as listed: never its value. */
export interface SecretInfo {
  id: string;
  name: string;
  description: string | null;
  created_at: string;
  updated_at: string;
}

export interface SecretSearch {
  /** Names containing this text, compared case-insensitively. */
  nameContains?: string;
  pageId?: string;
  limit: number;
}

/** What a secret is listed with. */
const INFO_COLUMNS = ['id', 'name', 'description', 'created_at', 'updated_at'] as const;

/** Each user's secrets, by name. */
const secretsOf = (db: Kysely<Tables>) => new OwnedRows(db, 'custom_secrets', 'name');

/** A user's custom secrets, unique by name, each value sealed and bound to its row. */
export class SecretsRepository {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly keyRing: KeyRing,
  ) {}

  /** A new secret; SecretNameTakenError when the user has one by this name. */
  async create(
    userId: string,
    input: { name: string; description?: string | null; value: string },
  ): Promise<SecretInfo> {
    const now = nowIso();
    const info: SecretInfo = {
      id: uuidv7(),
      name: input.name,
      description: input.description ?? null,
      created_at: now,
      updated_at: now,
    };
    const { keyId, sealed } = this.keyRing.seal(bindings.custom_secrets(userId, info.id), input.value);
    const inserted = await this.db
      .insertInto('custom_secrets')
      .values({ ...info, user_id: userId, key_id: keyId, sealed })
      .onConflict((oc) => oc.columns(['user_id', 'name']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) throw new SecretNameTakenError(input.name);
    return info;
  }

  /** The user's secrets by name (code point order), a page at a time; InvalidPageIdError for a foreign page id. */
  async search(userId: string, search: SecretSearch): Promise<Page<SecretInfo>> {
    let query = this.db.selectFrom('custom_secrets').select(INFO_COLUMNS).where('user_id', '=', userId);
    if (search.nameContains) {
      query = query.where(containsText('name', search.nameContains));
    }
    if (search.pageId !== undefined) {
      const [after] = decodePageId(search.pageId, 1) as [string];
      query = query.where('name', '>', after);
    }
    const rows = await query
      .orderBy('name')
      .limit(search.limit + 1)
      .execute();
    return pageOf(
      rows,
      search.limit,
      (row) => [row.name],
      (row) => row,
    );
  }

  get(userId: string, name: string): Promise<SecretInfo | undefined> {
    return secretsOf(this.db).pick(userId, name, INFO_COLUMNS);
  }

  /** Changes a secret's description and/or value; false when the user has no secret by this name. */
  async update(
    userId: string,
    name: string,
    change: { description?: string | null; value?: string },
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const row = await secretsOf(trx).pick(userId, name, ['id']);
      if (!row) return false;
      const sealed = change.value === undefined ? {} : this.sealValue(userId, row.id, change.value);
      const description = change.description === undefined ? {} : { description: change.description };
      await trx
        .updateTable('custom_secrets')
        .set({ ...sealed, ...description, updated_at: nowIso() })
        .where('id', '=', row.id)
        .execute();
      return true;
    });
  }

  /** Deletes a secret; false when the user has no secret by this name. */
  delete(userId: string, name: string): Promise<boolean> {
    return secretsOf(this.db).delete(userId, name);
  }

  /** The value of one of the user's secrets, or undefined. */
  async value(userId: string, name: string): Promise<string | undefined> {
    const row = await secretsOf(this.db).pick(userId, name, ['id', 'sealed']);
    return row ? this.keyRing.open(bindings.custom_secrets(userId, row.id), row.sealed) : undefined;
  }

  /** Every secret of the user by name, in clear (for the user's sandboxes). */
  async values(userId: string): Promise<Record<string, string>> {
    const rows = await this.db
      .selectFrom('custom_secrets')
      .select(['id', 'name', 'sealed'])
      .where('user_id', '=', userId)
      .orderBy('name')
      .execute();
    return Object.fromEntries(
      rows.map((row) => [row.name, this.keyRing.open(bindings.custom_secrets(userId, row.id), row.sealed)]),
    );
  }

  private sealValue(userId: string, secretId: string, value: string): { key_id: string; sealed: string } {
    const { keyId, sealed } = this.keyRing.seal(bindings.custom_secrets(userId, secretId), value);
    return { key_id: keyId, sealed };
  }
}
