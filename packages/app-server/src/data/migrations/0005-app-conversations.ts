import { type Kysely, sql } from 'kysely';
import type { Dialect, SchemaMigration } from './migration.ts';

/**
 * Conversations through the application: what a conversation was started with (repository, branch, provider),
 * what its agent server last reported (model, execution status, metrics as JSON), and the start tasks that
 * start them (the request kept with its secrets masked; problems as a JSON list). Start tasks are searched per
 * user by creation or update time, and settled by status when the app starts.
 */
export const appConversations: SchemaMigration = {
  name: '0005_app_conversations',
  async up(db: Kysely<unknown>, dialect: Dialect) {
    for (const column of [
      'selected_repository',
      'selected_branch',
      'git_provider',
      'llm_model',
      'execution_status',
      'metrics',
    ]) {
      await db.schema.alterTable('app_conversations').addColumn(column, 'text').execute();
    }
    await db.schema
      .createTable('app_conversation_start_tasks')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('detail', 'text')
      .addColumn('app_conversation_id', 'text')
      .addColumn('sandbox_id', 'text')
      .addColumn('agent_server_url', 'text')
      .addColumn('request', 'text', (col) => col.notNull())
      .addColumn('problems', 'text', (col) => col.notNull().defaultTo('[]'))
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute();
    for (const order of ['created_at', 'updated_at']) {
      await db.schema
        .createIndex(`start_tasks_by_user_${order.replace('_at', '')}`)
        .on('app_conversation_start_tasks')
        .columns(['user_id', order, 'id'])
        .execute();
    }
    await db.schema.createIndex('start_tasks_by_status').on('app_conversation_start_tasks').column('status').execute();
    await db.schema
      .createIndex('start_tasks_by_conversation')
      .on('app_conversation_start_tasks')
      .columns(['user_id', 'app_conversation_id'])
      .execute();
    if (dialect === 'postgres') await titleTrigramIndex(db);
  },
};

/**
 * On PostgreSQL, a trigram index of conversation titles: with it the planner knows how rare a `title__contains`
 * match is and walks the user's newest-first index (about 1 ms over 10,000 conversations) instead of reading and
 * sorting all of them (about 14 ms). `pg_trgm` ships with PostgreSQL and is a trusted extension; where it cannot
 * be created, the step goes on without the index (the filter still works, slower).
 */
async function titleTrigramIndex(db: Kysely<unknown>): Promise<void> {
  await sql`savepoint title_trigrams`.execute(db);
  try {
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`create index app_conversations_title_trigrams on app_conversations using gin (lower(title) gin_trgm_ops)`.execute(
      db,
    );
    await sql`release savepoint title_trigrams`.execute(db);
  } catch {
    await sql`rollback to savepoint title_trigrams`.execute(db);
  }
}
