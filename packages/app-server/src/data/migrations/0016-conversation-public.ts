import type { Kysely } from 'kysely';
import type { SchemaMigration } from './migration.ts';

/**
 * `is_public`: 1 when the owner shared the conversation read-only (anyone with its id reads it and its events at
 * `/api/shared-conversations` and `/api/shared-events`), 0 (every conversation so far) when only they may.
 */
export const conversationPublic: SchemaMigration = {
  name: '0016_conversation_public',
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('app_conversations')
      .addColumn('is_public', 'integer', (col) => col.notNull().defaultTo(0))
      .execute();
  },
};
