import { createIdTable, textColumns } from '@bosun/database';
import type { Kysely } from 'kysely';
import type { SchemaMigration } from './migration.ts';

/**
 * Registered marketplaces of organizations and users (the instance's come from the configuration), the version
 * of each organization's set (optimistic locking of its writes), and what each conversation auto-loaded.
 * `owner_key` is `user:<id>` or `org:<id>`: a name is unique within its owner; the foreign keys take a deleted
 * user's or organization's entries along.
 */
export const marketplaces: SchemaMigration = {
  name: '0008_marketplaces',
  async up(db: Kysely<unknown>) {
    await createIdTable(db, 'marketplaces')
      .$call(textColumns('scope', 'owner_key'))
      .addColumn('user_id', 'text', (col) => col.references('users.id').onDelete('cascade'))
      .addColumn('org_id', 'text', (col) => col.references('organizations.id').onDelete('cascade'))
      .$call(textColumns('name', 'source', 'ref?', 'repo_path?'))
      .addColumn('auto_load', 'integer', (col) => col.notNull())
      // 'follow': Auto-Load uses the ref's commit of the day; 'review': the approved commit until another is approved.
      .addColumn('updates', 'text', (col) => col.notNull().defaultTo('follow'))
      .$call(textColumns('approved_ref?', 'registered_by', 'registered_at', 'updated_at'))
      .addUniqueConstraint('marketplaces_owner_name', ['owner_key', 'name'])
      .execute();
    await db.schema
      .createTable('marketplace_versions')
      .addColumn('org_id', 'text', (col) => col.primaryKey().references('organizations.id').onDelete('cascade'))
      .addColumn('version', 'integer', (col) => col.notNull())
      .execute();
    for (const column of ['loaded_marketplaces', 'loaded_plugins']) {
      await db.schema.alterTable('app_conversations').addColumn(column, 'text').execute();
    }
  },
};
