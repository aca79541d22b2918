import type { Kysely } from 'kysely';
import type { SchemaMigration } from './migration.ts';

/**
 * Sandboxes: who owns each, its status and why, and the SHA-256 of its current session key (never the key: the
 * app keeps that in memory only). Searched per user, newest first; found by key hash when a sandbox calls in.
 */
export const sandboxes: SchemaMigration = {
  name: '0004_sandboxes',
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('sandboxes')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('spec_id', 'text', (col) => col.notNull())
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('status_detail', 'text')
      .addColumn('session_api_key_hash', 'text')
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('started_at', 'text')
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema
      .createIndex('sandboxes_by_user_created')
      .on('sandboxes')
      .columns(['user_id', 'created_at', 'id'])
      .execute();
    await db.schema
      .createIndex('sandboxes_by_session_key')
      .on('sandboxes')
      .column('session_api_key_hash')
      .unique()
      .execute();
    await db.schema.createIndex('sandboxes_by_status').on('sandboxes').column('status').execute();
  },
};
