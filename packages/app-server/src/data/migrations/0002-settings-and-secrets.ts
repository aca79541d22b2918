import { textColumns } from '@bosun/database';
import type { Kysely } from 'kysely';
import { type Dialect, type SchemaMigration, codePointText, createOwnedTable, userReference } from './migration.ts';

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
      .$call(textColumns('key_id', 'sealed', 'updated_at'))
      .execute();
    await createOwnedTable(db, 'custom_secrets')
      .addColumn('name', codePointText(dialect), (col) => col.notNull())
      .$call(textColumns('description?', 'key_id', 'sealed', 'created_at', 'updated_at'))
      .addUniqueConstraint('custom_secrets_user_name', ['user_id', 'name'])
      .execute();
    await db.schema
      .createTable('provider_tokens')
      .addColumn('user_id', 'text', userReference)
      .addColumn('provider', codePointText(dialect), (col) => col.notNull())
      .$call(textColumns('host?', 'key_id', 'sealed', 'created_at', 'updated_at'))
      .addPrimaryKeyConstraint('provider_tokens_pk', ['user_id', 'provider'])
      .execute();
    for (const table of ['user_settings', 'custom_secrets', 'provider_tokens']) {
      await db.schema.createIndex(`${table}_by_key`).on(table).column('key_id').execute();
    }
  },
};
