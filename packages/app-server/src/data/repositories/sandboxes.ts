import type { Kysely, Selectable, Updateable } from 'kysely';
import { type Page, newestFirst } from '../pages.ts';
import type { SandboxesTable, Tables } from '../tables.ts';
import { OwnedRows } from './owned-rows.ts';

export type SandboxRecord = Selectable<SandboxesTable>;
export type SandboxChange = Omit<Updateable<SandboxesTable>, 'id' | 'user_id' | 'created_at' | 'updated_at'>;

export interface NewSandbox {
  id: string;
  userId: string;
  specId: string;
  status: string;
  statusDetail?: string | null;
  sessionApiKeyHash?: string | null;
}

/** Sandboxes, each owned by one user; a sandbox's session key is stored only as its SHA-256. */
export class SandboxesRepository extends OwnedRows<'sandboxes', 'id'> {
  constructor(db: Kysely<Tables>) {
    super(db, 'sandboxes', 'id');
  }

  async create(sandbox: NewSandbox): Promise<SandboxRecord> {
    const now = new Date().toISOString();
    const row: SandboxRecord = {
      id: sandbox.id,
      user_id: sandbox.userId,
      spec_id: sandbox.specId,
      status: sandbox.status,
      status_detail: sandbox.statusDetail ?? null,
      session_api_key_hash: sandbox.sessionApiKeyHash ?? null,
      runtime_id: null,
      created_at: now,
      started_at: null,
      updated_at: now,
    };
    await this.db.insertInto('sandboxes').values(row).execute();
    return row;
  }

  /** The sandbox whose current session key hashes to `hash` (how a sandbox calling the app is recognised). */
  async getBySessionKeyHash(hash: string): Promise<SandboxRecord | undefined> {
    return this.db.selectFrom('sandboxes').selectAll().where('session_api_key_hash', '=', hash).executeTakeFirst();
  }

  /** Who owns sandbox `id` (for work the app does on a sandbox's behalf, never to answer a user's request). */
  async ownerOf(id: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('sandboxes').select('user_id').where('id', '=', id).executeTakeFirst();
    return row?.user_id;
  }

  /** The user's sandboxes, newest first (by creation, then id), a page at a time from the index. */
  page(userId: string, options: { limit: number; pageId?: string }): Promise<Page<SandboxRecord>> {
    return newestFirst(this.db.selectFrom('sandboxes').selectAll().where('user_id', '=', userId), options);
  }

  /** The user's sandboxes in one of `statuses`, the least recently started first. */
  async withStatus(userId: string, statuses: readonly string[]): Promise<SandboxRecord[]> {
    return this.db
      .selectFrom('sandboxes')
      .selectAll()
      .where('user_id', '=', userId)
      .where('status', 'in', [...statuses])
      .orderBy('started_at', 'asc')
      .orderBy('id', 'asc')
      .execute();
  }

  /** Every user's sandboxes in one of `statuses` (at start: what the previous run of the app left running). */
  async allWithStatus(statuses: readonly string[]): Promise<SandboxRecord[]> {
    return this.db
      .selectFrom('sandboxes')
      .selectAll()
      .where('status', 'in', [...statuses])
      .execute();
  }

  /** Keeps the lease of a sandbox this replica is starting: its `updated_at` now. */
  async touch(id: string): Promise<void> {
    await this.db.updateTable('sandboxes').set({ updated_at: new Date().toISOString() }).where('id', '=', id).execute();
  }

  async update(id: string, change: SandboxChange): Promise<void> {
    await this.db
      .updateTable('sandboxes')
      .set({ ...change, updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .execute();
  }

  /**
   * `change` only if the row is as it was read (its `updated_at`): what a read learnt must not undo what an
   * operation wrote meanwhile. Answers whether it was applied.
   */
  async updateUnchanged(id: string, updatedAt: string, change: SandboxChange): Promise<boolean> {
    const result = await this.db
      .updateTable('sandboxes')
      .set({ ...change, updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .where('updated_at', '=', updatedAt)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
