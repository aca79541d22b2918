import type { Kysely, Selectable, Updateable } from 'kysely';
import { type Page, decodePageId, pageOf } from '../pages.ts';
import type { StartTasksTable, Tables } from '../tables.ts';
import { countRows } from './count.ts';
import { OwnedRows } from './owned-rows.ts';

export type StartTaskRecord = Selectable<StartTasksTable>;
export type StartTaskChange = Omit<Updateable<StartTasksTable>, 'id' | 'user_id' | 'created_at' | 'updated_at'>;

export interface StartTaskFilters {
  conversationId?: string;
  createdAtGte?: string;
}

export type StartTaskOrder = 'CREATED_AT' | 'CREATED_AT_DESC' | 'UPDATED_AT' | 'UPDATED_AT_DESC';

/** The statuses a start ends in. */
const FINISHED = ['READY', 'ERROR'];

/** Start tasks of conversations, each owned by one user. */
export class StartTasksRepository extends OwnedRows<'app_conversation_start_tasks', 'id'> {
  constructor(db: Kysely<Tables>) {
    super(db, 'app_conversation_start_tasks', 'id');
  }

  async create(task: { id: string; userId: string; status: string; request: string }): Promise<StartTaskRecord> {
    const now = new Date().toISOString();
    const row: StartTaskRecord = {
      id: task.id,
      user_id: task.userId,
      status: task.status,
      detail: null,
      app_conversation_id: null,
      sandbox_id: null,
      agent_server_url: null,
      request: task.request,
      problems: '[]',
      created_at: now,
      updated_at: now,
    };
    await this.db.insertInto('app_conversation_start_tasks').values(row).execute();
    return row;
  }

  /** Changes a task and answers it as stored (`updated_at` now, never before its previous value). */
  async update(id: string, change: StartTaskChange): Promise<StartTaskRecord | undefined> {
    await this.db
      .updateTable('app_conversation_start_tasks')
      .set({ ...change, updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .execute();
    return this.db.selectFrom('app_conversation_start_tasks').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The task whoever owns it (for work the app does on its own, never for a request). */
  async getOfAnyUser(id: string): Promise<StartTaskRecord | undefined> {
    return this.db.selectFrom('app_conversation_start_tasks').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async count(userId: string, filters: StartTaskFilters = {}): Promise<number> {
    return countRows(this.filtered(userId, filters));
  }

  /** The user's tasks in `order` (then by id), a page at a time from the index. */
  async search(
    userId: string,
    filters: StartTaskFilters,
    order: StartTaskOrder,
    options: { limit: number; pageId?: string },
  ): Promise<Page<StartTaskRecord>> {
    const column = order.startsWith('CREATED_AT') ? 'created_at' : 'updated_at';
    const descending = order.endsWith('_DESC');
    const after = descending ? '<' : '>';
    let query = this.filtered(userId, filters).selectAll();
    if (options.pageId !== undefined) {
      const [value, id] = decodePageId(options.pageId, 2) as [string, string];
      query = query.where((eb) =>
        eb.or([eb(column, after, value), eb.and([eb(column, '=', value), eb('id', after, id)])]),
      );
    }
    const direction = descending ? 'desc' : 'asc';
    const rows = await query
      .orderBy(column, direction)
      .orderBy('id', direction)
      .limit(options.limit + 1)
      .execute();
    return pageOf(
      rows,
      options.limit,
      (row) => [row[column], row.id],
      (row) => row,
    );
  }

  /** Ends with `detail` the unfinished tasks nobody touched since `staleBefore` (an ISO time). */
  async settleUnfinished(detail: string, staleBefore: string): Promise<number> {
    const result = await this.db
      .updateTable('app_conversation_start_tasks')
      .set({ status: 'ERROR', detail, updated_at: new Date().toISOString() })
      .where('status', 'not in', FINISHED)
      .where('updated_at', '<', staleBefore)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** Keeps the lease of an unfinished task: its `updated_at` now. */
  async touch(id: string): Promise<void> {
    await this.db
      .updateTable('app_conversation_start_tasks')
      .set({ updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .where('status', 'not in', FINISHED)
      .execute();
  }

  private filtered(userId: string, filters: StartTaskFilters) {
    let query = this.db.selectFrom('app_conversation_start_tasks').where('user_id', '=', userId);
    if (filters.conversationId !== undefined) query = query.where('app_conversation_id', '=', filters.conversationId);
    if (filters.createdAtGte !== undefined) query = query.where('created_at', '>=', filters.createdAtGte);
    return query;
  }
}
