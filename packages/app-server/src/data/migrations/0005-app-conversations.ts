import { createIndexes, textColumns } from '@bosun/database';
import { type Kysely, sql } from 'kysely';
import { type Dialect, type SchemaMigration, createOwnedTable } from './migration.ts';

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
    await createOwnedTable(db, 'app_conversation_start_tasks')
      .$call(textColumns('status', 'detail?', 'app_conversation_id?', 'sandbox_id?', 'agent_server_url?', 'request'))
      .addColumn('problems', 'text', (col) => col.notNull().defaultTo('[]'))
      .$call(textColumns('created_at', 'updated_at'))
      .execute();
    await createIndexes(db, 'app_conversation_start_tasks', {
      start_tasks_by_user_created: ['user_id', 'created_at', 'id'],
      start_tasks_by_user_updated: ['user_id', 'updated_at', 'id'],
      start_tasks_by_status: ['status'],
      start_tasks_by_conversation: ['user_id', 'app_conversation_id'],
    });
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
