import type { Kysely } from 'kysely';
import type { SchemaMigration } from './migration.ts';

/**
 * What a live replica needs to take over a start task whose replica stopped (src/conversations/task-takeover.ts):
 * - `conversation_id`: the id the conversation gets, fixed when the task is created (a start run again makes the
 *   same conversation, never a second one);
 * - `runner`: the run that holds the task (a new one at each takeover): a replica whose task was taken over finds
 *   its writes refused and stops;
 * - `takeovers`: how many times it was taken over (bounded);
 * - `key_id`, `sealed`: the full start request (its secrets included), sealed with the app's key ring while the
 *   task runs, erased once it is READY or ERROR.
 */
export const startTaskTakeover: SchemaMigration = {
  name: '0012_start_task_takeover',
  async up(db: Kysely<unknown>) {
    const table = 'app_conversation_start_tasks';
    for (const column of ['conversation_id', 'runner', 'key_id', 'sealed']) {
      await db.schema.alterTable(table).addColumn(column, 'text').execute();
    }
    await db.schema
      .alterTable(table)
      .addColumn('takeovers', 'integer', (col) => col.notNull().defaultTo(0))
      .execute();
    // Key rotation finds the requests sealed with a previous key (sealed-rows.ts); the sweep, the unfinished tasks.
    await db.schema.createIndex(`${table}_by_key`).on(table).column('key_id').execute();
    await db.schema.createIndex(`${table}_by_status`).on(table).columns(['status', 'updated_at']).execute();
  },
};
