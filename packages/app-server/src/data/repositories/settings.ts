import { type Kysely, type Transaction, sql } from 'kysely';
import { type JsonObject, mergePatch } from '../merge-patch.ts';
import type { Dialect } from '../migrations/index.ts';
import { bindings } from '../sealed-rows.ts';
import type { KeyRing } from '../secret-cipher.ts';
import type { Tables } from '../tables.ts';
import { nowIso } from '../tokens.ts';

/** A write that joins a repository's transaction. */
export type TransactionWrite = (trx: Transaction<Tables>) => Promise<void>;

/** Each user's settings: one JSON object, sealed whole (it holds LLM API keys). */
export class SettingsRepository {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly dialect: Dialect,
    private readonly keyRing: KeyRing,
  ) {}

  /** The user's stored settings, or undefined when they never stored any. */
  async get(userId: string): Promise<JsonObject | undefined> {
    const sealed = await sealedSettings(this.db, userId, false);
    return sealed === undefined ? undefined : this.open(userId, sealed);
  }

  /**
   * Applies `patch` to the user's settings as a JSON merge patch (objects merge at any depth, `null` removes a
   * key) and returns the result. Read, merge and write happen in one transaction holding the user's row, so two
   * updates at once both land; `alongside` writes in the same transaction (all of it lands, or none).
   */
  async update(userId: string, patch: JsonObject, alongside?: TransactionWrite): Promise<JsonObject> {
    return this.db.transaction().execute(async (trx) => {
      const current = await this.lockedSettings(trx, userId);
      await alongside?.(trx);
      const merged = mergePatch(current, patch);
      const { keyId, sealed } = this.keyRing.seal(bindings.user_settings(userId), JSON.stringify(merged));
      await trx
        .updateTable('user_settings')
        .set({ key_id: keyId, sealed, updated_at: nowIso() })
        .where('user_id', '=', userId)
        .execute();
      return merged;
    });
  }

  /** The settings in the user's row, locked until the transaction ends; an empty row is created first if needed. */
  private async lockedSettings(trx: Kysely<Tables>, userId: string): Promise<JsonObject> {
    const empty = this.keyRing.seal(bindings.user_settings(userId), '{}');
    // On PostgreSQL this waits for a concurrent first update to commit, so the select below sees its row.
    await trx
      .insertInto('user_settings')
      .values({ user_id: userId, key_id: empty.keyId, sealed: empty.sealed, updated_at: nowIso() })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute();
    return this.open(userId, (await sealedSettings(trx, userId, this.dialect === 'postgres')) as string);
  }

  private open(userId: string, sealed: string): JsonObject {
    return JSON.parse(this.keyRing.open(bindings.user_settings(userId), sealed)) as JsonObject;
  }
}

/** The user's sealed settings, if stored; `forUpdate`: locked until the transaction ends. */
async function sealedSettings(db: Kysely<Tables>, userId: string, forUpdate: boolean): Promise<string | undefined> {
  const lock = forUpdate ? sql` for update` : sql``;
  const { rows } = await sql<{
    sealed: string;
  }>`select sealed from user_settings where user_id = ${userId}${lock}`.execute(db);
  return rows[0]?.sealed;
}
