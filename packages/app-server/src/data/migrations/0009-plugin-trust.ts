import type { Kysely } from 'kysely';
import type { SchemaMigration } from './migration.ts';

/**
 * The plugin sources each user confirmed trust in before a conversation loaded them: one row per source and
 * commit (`commit` null: any commit of a source the server does not fetch from, see the app server's README).
 */
export const pluginTrust: SchemaMigration = {
  name: '0009_plugin_trust',
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('plugin_trust')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('source', 'text', (col) => col.notNull())
      // '' for "any commit": a unique index treats NULLs as distinct.
      .addColumn('commit_sha', 'text', (col) => col.notNull())
      .addColumn('confirmed_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema
      .createIndex('plugin_trust_by_source')
      .on('plugin_trust')
      .columns(['user_id', 'source', 'commit_sha'])
      .unique()
      .execute();
  },
};
