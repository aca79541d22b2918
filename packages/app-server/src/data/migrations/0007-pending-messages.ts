import type { Kysely } from 'kysely';
import type { SchemaMigration } from './migration.ts';

/**
 * Messages queued for a conversation that does not run yet (its start task is under way): kept until its agent
 * server took them, so a message acknowledged survives a restart of the app. `seq` orders a target's messages;
 * `conversation_id` is known once the start is READY (or at once when queued for a conversation).
 */
export const pendingMessages: SchemaMigration = {
  name: '0007_pending_messages',
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('app_pending_messages')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('task_id', 'text')
      // A deleted conversation takes what waited for it along.
      .addColumn('conversation_id', 'text', (col) => col.references('app_conversations.id').onDelete('cascade'))
      .addColumn('seq', 'integer', (col) => col.notNull())
      .addColumn('role', 'text', (col) => col.notNull())
      .addColumn('content', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      // Set before each post to the agent server: a message attempted but not delivered may have arrived.
      .addColumn('attempted_at', 'text')
      .addColumn('delivered_at', 'text')
      .execute();
    await db.schema
      .createIndex('app_pending_messages_by_task')
      .on('app_pending_messages')
      .columns(['task_id', 'seq'])
      .execute();
    await db.schema
      .createIndex('app_pending_messages_by_conversation')
      .on('app_pending_messages')
      .columns(['conversation_id', 'seq'])
      .execute();
  },
};
