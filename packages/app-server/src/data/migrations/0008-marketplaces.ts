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
    await db.schema
      .createTable('marketplaces')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('scope', 'text', (col) => col.notNull())
      .addColumn('owner_key', 'text', (col) => col.notNull())
      .addColumn('user_id', 'text', (col) => col.references('users.id').onDelete('cascade'))
      .addColumn('org_id', 'text', (col) => col.references('organizations.id').onDelete('cascade'))
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('source', 'text', (col) => col.notNull())
      .addColumn('ref', 'text')
      .addColumn('repo_path', 'text')
      .addColumn('auto_load', 'integer', (col) => col.notNull())
      // 'follow': Auto-Load uses the ref's commit of the day; 'review': the approved commit until another is approved.
      .addColumn('updates', 'text', (col) => col.notNull().defaultTo('follow'))
      .addColumn('approved_ref', 'text')
      .addColumn('registered_by', 'text', (col) => col.notNull())
      .addColumn('registered_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
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
