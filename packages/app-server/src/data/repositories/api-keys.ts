import type { Kysely } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import type { Tables } from '../tables.ts';
import { nowIso, randomBase62, tokenHash } from '../tokens.ts';
import { OwnedRows } from './owned-rows.ts';

export const API_KEY_PREFIX = 'sk-bosun-';
/** How much of a key is kept to show which key is which (the prefix and 4 random characters). */
const DISPLAY_CHARS = API_KEY_PREFIX.length + 4;

/** An API key as listed: never the key nor its hash. */
export interface ApiKeyRecord {
  id: string;
  name: string;
  org_id: string | null;
  /** The key's first characters (`sk-bosun-AbCd`), to tell keys apart. */
  display_prefix: string;
  created_at: string;
  expires_at: string | null;
}

export interface NewApiKey {
  userId: string;
  name: string;
  orgId?: string | null;
  /** ISO-8601; absent for a key that does not expire. */
  expiresAt?: string | null;
}

/** Who an accepted key acts for. */
export interface ApiKeyIdentity {
  keyId: string;
  userId: string;
  orgId?: string;
}

const keysOf = (db: Kysely<Tables>) => new OwnedRows(db, 'api_keys', 'id');

export class ApiKeysRepository {
  constructor(private readonly db: Kysely<Tables>) {}

  /** A new key: `key` is returned here only; the database keeps its SHA-256. */
  async create(input: NewApiKey): Promise<{ key: string; record: ApiKeyRecord }> {
    const key = `${API_KEY_PREFIX}${randomBase62()}`;
    const record: ApiKeyRecord = {
      id: uuidv7(),
      name: input.name,
      org_id: input.orgId ?? null,
      display_prefix: key.slice(0, DISPLAY_CHARS),
      created_at: nowIso(),
      expires_at: input.expiresAt ? new Date(input.expiresAt).toISOString() : null,
    };
    await this.db
      .insertInto('api_keys')
      .values({ ...record, user_id: input.userId, key_hash: tokenHash(key) })
      .execute();
    return { key, record };
  }

  /**
   * Who the key acts for, or undefined for an unknown or expired key. The lookup is by the key's hash (a unique
   * index), so the time it takes says nothing about how close a guess was.
   */
  async authenticate(key: string): Promise<ApiKeyIdentity | undefined> {
    if (!key.startsWith(API_KEY_PREFIX)) return undefined;
    const row = await this.db
      .selectFrom('api_keys')
      .select(['id', 'user_id', 'org_id', 'expires_at'])
      .where('key_hash', '=', tokenHash(key))
      .executeTakeFirst();
    if (!row || (row.expires_at !== null && row.expires_at <= nowIso())) return undefined;
    return { keyId: row.id, userId: row.user_id, ...(row.org_id !== null ? { orgId: row.org_id } : {}) };
  }

  /** The user's keys, oldest first. */
  async list(userId: string): Promise<ApiKeyRecord[]> {
    return this.db
      .selectFrom('api_keys')
      .select(['id', 'name', 'org_id', 'display_prefix', 'created_at', 'expires_at'])
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  /** Deletes one of the user's keys; false when the user has no key with this id. */
  delete(userId: string, keyId: string): Promise<boolean> {
    return keysOf(this.db).delete(userId, keyId);
  }
}
