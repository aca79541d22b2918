import { type Kysely, type Selectable, type Updateable, sql } from 'kysely';
import { type Page, decodePageId, pageOf } from '../pages.ts';
import { bindings } from '../sealed-rows.ts';
import type { KeyRing } from '../secret-cipher.ts';
import type { StartTasksTable, Tables } from '../tables.ts';
import { countRows } from './count.ts';
import { OwnedRows } from './owned-rows.ts';

export type StartTaskRecord = Selectable<StartTasksTable>;
export type StartTaskChange = Omit<
  Updateable<StartTasksTable>,
  'id' | 'user_id' | 'created_at' | 'updated_at' | 'conversation_id' | 'runner' | 'takeovers' | 'key_id' | 'sealed'
>;

/** A new task: `runner` holds it, `conversationId` is the id its conversation gets. */
export interface NewStartTask {
  id: string;
  userId: string;
  status: string;
  request: string;
  conversationId?: string | null;
  runner?: string | null;
  /** The full start (its secrets included), sealed into the row as it is inserted: a takeover can run it. */
  start?: string;
}

export interface StartTaskFilters {
  conversationId?: string;
  createdAtGte?: string;
}

export type StartTaskOrder = 'CREATED_AT' | 'CREATED_AT_DESC' | 'UPDATED_AT' | 'UPDATED_AT_DESC';

/** The statuses a start ends in. */
const FINISHED = ['READY', 'ERROR'];

/** What a finished task keeps of its run: not the sealed request. */
const ERASED = { key_id: null, sealed: null } as const;

/**
 * Start tasks of conversations, each owned by one user. While a task runs, one run holds it (`runner`, changed by
 * each takeover): the changes of a run are made only while it holds the task (`updateAsRunner`), and the full
 * request it runs is sealed with the key ring as the task is created, erased when the task is READY or ERROR.
 */
export class StartTasksRepository extends OwnedRows<'app_conversation_start_tasks', 'id'> {
  constructor(
    db: Kysely<Tables>,
    private readonly keyRing: KeyRing,
  ) {
    super(db, 'app_conversation_start_tasks', 'id');
  }

  async create(task: NewStartTask): Promise<StartTaskRecord> {
    const now = new Date().toISOString();
    const sealing = task.start === undefined ? undefined : this.sealed(task.userId, task.id, task.start);
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
      conversation_id: task.conversationId ?? null,
      runner: task.runner ?? null,
      takeovers: 0,
      key_id: sealing?.keyId ?? null,
      sealed: sealing?.sealed ?? null,
    };
    await this.db.insertInto('app_conversation_start_tasks').values(row).execute();
    return row;
  }

  /**
   * Changes a task and answers it as stored (`updated_at` now, never before its previous value); a task READY or
   * ERROR keeps no sealed request.
   */
  async update(id: string, change: StartTaskChange): Promise<StartTaskRecord | undefined> {
    await this.db.updateTable('app_conversation_start_tasks').set(this.changed(change)).where('id', '=', id).execute();
    return this.getOfAnyUser(id);
  }

  /** As `update`, only while `runner` holds the unfinished task: undefined when it no longer does. */
  async updateAsRunner(id: string, runner: string, change: StartTaskChange): Promise<StartTaskRecord | undefined> {
    const result = await this.db
      .updateTable('app_conversation_start_tasks')
      .set(this.changed(change))
      .where('id', '=', id)
      .where('runner', '=', runner)
      .where('status', 'not in', FINISHED)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0 ? this.getOfAnyUser(id) : undefined;
  }

  private sealed(userId: string, taskId: string, request: string) {
    return this.keyRing.seal(bindings.app_conversation_start_tasks(userId, taskId), request);
  }

  /** The request sealed in the task (null when none is); a SecretsKeyError when the key ring cannot open it. */
  unseal(task: Pick<StartTaskRecord, 'id' | 'user_id' | 'sealed'>): string | null {
    if (task.sealed === null) return null;
    return this.keyRing.open(bindings.app_conversation_start_tasks(task.user_id, task.id), task.sealed);
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

  /**
   * Ends with `detail` the unfinished tasks nobody touched since `staleBefore` (an ISO time) that cannot be run
   * again: nothing sealed to run (the replica stopped before its run began, or a task older than 0012), or taken
   * over `maxTakeovers` times already and not handed over (a task handed over has no runner: see `release`).
   */
  async settleUnfinished(detail: string, staleBefore: string, maxTakeovers?: number): Promise<number> {
    const result = await this.db
      .updateTable('app_conversation_start_tasks')
      .where('status', 'not in', FINISHED)
      .where('updated_at', '<', staleBefore)
      .set({ status: 'ERROR', detail, updated_at: new Date().toISOString(), ...ERASED })
      .where((eb) =>
        maxTakeovers === undefined
          ? eb('sealed', 'is', null)
          : eb.and([eb('takeovers', '>=', maxTakeovers), eb('runner', 'is not', null)]),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** The unfinished tasks nobody touched since `staleBefore` that can be run again, oldest first. */
  async abandoned(staleBefore: string, limit = 20): Promise<string[]> {
    const rows = await this.db
      .selectFrom('app_conversation_start_tasks')
      .where('status', 'not in', FINISHED)
      .where('updated_at', '<', staleBefore)
      .select('id')
      .where('sealed', 'is not', null)
      .orderBy('updated_at')
      .limit(limit)
      .execute();
    return rows.map((row) => row.id);
  }

  /**
   * Takes the task over for `runner` when it is still abandoned (unfinished, untouched since `staleBefore`, taken
   * over fewer than `maxTakeovers` times, or handed over): one conditional update, so of replicas claiming it at
   * once one wins. A task handed over (no runner) is claimed without counting a takeover: its replica stopped on
   * purpose, its run did not fail.
   */
  async claim(id: string, runner: string, staleBefore: string, maxTakeovers: number): Promise<boolean> {
    const result = await this.db
      .updateTable('app_conversation_start_tasks')
      .where('status', 'not in', FINISHED)
      .where('updated_at', '<', staleBefore)
      .set({
        runner,
        takeovers: sql`takeovers + (case when runner is null then 0 else 1 end)`,
        updated_at: new Date().toISOString(),
      })
      .where('id', '=', id)
      .where('sealed', 'is not', null)
      .where((eb) => eb.or([eb('takeovers', '<', maxTakeovers), eb('runner', 'is', null)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Hands the unfinished task `runner` holds over to the next replica that sweeps: no runner, and untouched since
   * `staleAt` (a time before any lease), in one conditional update. False when `runner` no longer holds it.
   */
  async release(id: string, runner: string, staleAt: string): Promise<boolean> {
    const result = await this.db
      .updateTable('app_conversation_start_tasks')
      .set({ runner: null, updated_at: staleAt })
      .where('id', '=', id)
      .where('runner', '=', runner)
      .where('status', 'not in', FINISHED)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Keeps the lease of an unfinished task (`runner`'s, when given): its `updated_at` now. False when not kept. */
  async touch(id: string, runner?: string): Promise<boolean> {
    let query = this.db
      .updateTable('app_conversation_start_tasks')
      .set({ updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .where('status', 'not in', FINISHED);
    if (runner !== undefined) query = query.where('runner', '=', runner);
    return Number((await query.executeTakeFirst()).numUpdatedRows) > 0;
  }

  private changed(change: StartTaskChange) {
    const settled = change.status !== undefined && FINISHED.includes(change.status as string);
    return { ...change, updated_at: new Date().toISOString(), ...(settled ? ERASED : {}) };
  }

  private filtered(userId: string, filters: StartTaskFilters) {
    let query = this.db.selectFrom('app_conversation_start_tasks').where('user_id', '=', userId);
    if (filters.conversationId !== undefined) query = query.where('app_conversation_id', '=', filters.conversationId);
    if (filters.createdAtGte !== undefined) query = query.where('created_at', '>=', filters.createdAtGte);
    return query;
  }
}
