import { createIndexes } from '@bosun/database';
import type { Kysely } from 'kysely';
import { type Dialect, type SchemaMigration, codePointText, userReference } from './migration.ts';

/**
 * The events of the app's conversations, as their agent servers sent them: one row per event, placed by an
 * app-assigned sequence (per conversation, from 1, gap-free) that orders and pages them; the event id is unique in
 * its conversation, so a second delivery of an event is never a second row. Deleting the conversation deletes them.
 */
export const events: SchemaMigration = {
  name: '0006_events',
  async up(db: Kysely<unknown>, dialect: Dialect) {
    await db.schema
      .createTable('app_events')
      .addColumn('conversation_id', 'text', (col) =>
        col.notNull().references('app_conversations.id').onDelete('cascade'),
      )
      .addColumn('seq', 'integer', (col) => col.notNull())
      .addColumn('user_id', 'text', userReference)
      .addColumn('event_id', 'text', (col) => col.notNull())
      .addColumn('kind', 'text', (col) => col.notNull())
      // Compared as text in filters: the same order as time on both dialects.
      .addColumn('timestamp', codePointText(dialect), (col) => col.notNull())
      .addColumn('source', 'text', (col) => col.notNull())
      .addColumn('json', 'text', (col) => col.notNull())
      .addPrimaryKeyConstraint('app_events_pk', ['conversation_id', 'seq'])
      .addUniqueConstraint('app_events_event_id', ['conversation_id', 'event_id'])
      .execute();
    await createIndexes(db, 'app_events', { app_events_by_kind: ['conversation_id', 'kind', 'seq'] });
  },
};
