import { createIndexes, textColumns } from '@bosun/database';
import type { Kysely } from 'kysely';
import { type SchemaMigration, createOwnedTable } from './migration.ts';

/**
 * Messages queued for a conversation that does not run yet (its start task is under way): kept until its agent
 * server took them, so a message acknowledged survives a restart of the app. `seq` orders a target's messages;
 * `conversation_id` is known once the start is READY (or at once when queued for a conversation).
 */
export const pendingMessages: SchemaMigration = {
  name: '0007_pending_messages',
  async up(db: Kysely<unknown>) {
    await createOwnedTable(db, 'app_pending_messages')
      .addColumn('task_id', 'text')
      // A deleted conversation takes what waited for it along.
      .addColumn('conversation_id', 'text', (col) => col.references('app_conversations.id').onDelete('cascade'))
      .addColumn('seq', 'integer', (col) => col.notNull())
      // `attempted_at` is set before each post to the agent server: a message attempted but not delivered may have
      // arrived.
      .$call(textColumns('role', 'content', 'created_at', 'attempted_at?', 'delivered_at?'))
      .execute();
    await createIndexes(db, 'app_pending_messages', {
      app_pending_messages_by_task: ['task_id', 'seq'],
      app_pending_messages_by_conversation: ['conversation_id', 'seq'],
    });
  },
};
