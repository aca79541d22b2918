import type { Kysely } from 'kysely';
import { type Dialect, type SchemaMigration, codePointText } from './migration.ts';

/**
 * Settings per user, custom secrets and Git provider tokens: each sealed, with the id of the sealing key in
 * `key_id` (indexed, so a rotation finds what to re-seal without reading every row).
 */
export const settingsAndSecrets: SchemaMigration = {
  name: '0002_settings_and_secrets',
  async up(db: Kysely<unknown>, dialect: Dialect) {
    await db.schema
      .createTable('user_settings')
      .addColumn('user_id', 'text', (col) => col.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('key_id', 'text', (col) => col.notNull())
      .addColumn('sealed', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema
      .createTable('custom_secrets')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('name', codePointText(dialect), (col) => col.notNull())
      .addColumn('description', 'text')
      .addColumn('key_id', 'text', (col) => col.notNull())
      .addColumn('sealed', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .addUniqueConstraint('custom_secrets_user_name', ['user_id', 'name'])
      .execute();
    await db.schema
      .createTable('provider_tokens')
      .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('provider', codePointText(dialect), (col) => col.notNull())
      .addColumn('host', 'text')
      .addColumn('key_id', 'text', (col) => col.notNull())
      .addColumn('sealed', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .addPrimaryKeyConstraint('provider_tokens_pk', ['user_id', 'provider'])
      .execute();
    for (const table of ['user_settings', 'custom_secrets', 'provider_tokens']) {
      await db.schema.createIndex(`${table}_by_key`).on(table).column('key_id').execute();
    }
  },
};
