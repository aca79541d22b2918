import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { PluginTrustTable, Tables } from '../tables.ts';
import { OwnedRows } from './owned-rows.ts';

type Row = Selectable<PluginTrustTable>;

/** A trust confirmation: `commit` null for any commit. */
export interface PluginTrustRecord {
  id: string;
  user_id: string;
  source: string;
  commit: string | null;
  confirmed_at: string;
}

const recordOf = (row: Row): PluginTrustRecord => ({
  id: row.id,
  user_id: row.user_id,
  source: row.source,
  commit: row.commit_sha === '' ? null : row.commit_sha,
  confirmed_at: row.confirmed_at,
});

const confirmationsOf = (db: Kysely<Tables>) => new OwnedRows(db, 'plugin_trust', 'id');

/** The plugin sources each user confirmed trust in. */
export class PluginTrustRepository {
  constructor(private readonly db: Kysely<Tables>) {}

  /** Records the confirmation (once: confirming again answers the first record). */
  async confirm(userId: string, source: string, commit: string | null): Promise<PluginTrustRecord> {
    const existing = await this.find(userId, source, commit);
    if (existing) return existing;
    const row: Row = {
      id: randomUUID(),
      user_id: userId,
      source,
      commit_sha: commit ?? '',
      confirmed_at: new Date().toISOString(),
    };
    try {
      await this.db.insertInto('plugin_trust').values(row).execute();
    } catch (error) {
      // Another request confirmed the same at the same time: theirs is the record.
      const raced = await this.find(userId, source, commit);
      if (raced) return raced;
      throw error;
    }
    return recordOf(row);
  }

  /** Whether the user trusts `source` at `commit` (a confirmation for any commit counts for every one). */
  async trusts(userId: string, source: string, commit: string | null): Promise<boolean> {
    const row = await this.db
      .selectFrom('plugin_trust')
      .select('id')
      .where('user_id', '=', userId)
      .where('source', '=', source)
      .where('commit_sha', 'in', commit ? [commit, ''] : [''])
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The user's confirmations, newest first. */
  async list(userId: string): Promise<PluginTrustRecord[]> {
    const rows = await this.db
      .selectFrom('plugin_trust')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('confirmed_at', 'desc')
      .orderBy('id')
      .execute();
    return rows.map(recordOf);
  }

  /** Revokes one of the user's confirmations; false when they have none of that id. */
  revoke(userId: string, id: string): Promise<boolean> {
    return confirmationsOf(this.db).delete(userId, id);
  }

  private async find(userId: string, source: string, commit: string | null): Promise<PluginTrustRecord | undefined> {
    const row = await this.db
      .selectFrom('plugin_trust')
      .selectAll()
      .where('user_id', '=', userId)
      .where('source', '=', source)
      .where('commit_sha', '=', commit ?? '')
      .executeTakeFirst();
    return row ? recordOf(row) : undefined;
  }
}
