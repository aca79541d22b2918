import type { Kysely } from 'kysely';
import type { SchemaMigration } from './migration.ts';

/** The app's conversations: who owns each, in which organization and sandbox; searched per user, newest first. */
export const conversations: SchemaMigration = {
  name: '0003_conversations',
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('app_conversations')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('org_id', 'text', (col) => col.references('organizations.id').onDelete('set null'))
      .addColumn('sandbox_id', 'text')
      .addColumn('title', 'text')
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema
      .createIndex('app_conversations_by_user_created')
      .on('app_conversations')
      .columns(['user_id', 'created_at', 'id'])
      .execute();
    await db.schema
      .createIndex('app_conversations_by_user_updated')
      .on('app_conversations')
      .columns(['user_id', 'updated_at', 'id'])
      .execute();
    await db.schema.createIndex('app_conversations_by_org').on('app_conversations').column('org_id').execute();
    await db.schema.createIndex('app_conversations_by_sandbox').on('app_conversations').column('sandbox_id').execute();
  },
};
