import { createIndexes, textColumns } from '@bosun/database';
import type { Kysely } from 'kysely';
import { type SchemaMigration, createOwnedTable } from './migration.ts';

/** The app's conversations: who owns each, in which organization and sandbox; searched per user, newest first. */
export const conversations: SchemaMigration = {
  name: '0003_conversations',
  async up(db: Kysely<unknown>) {
    await createOwnedTable(db, 'app_conversations')
      .addColumn('org_id', 'text', (col) => col.references('organizations.id').onDelete('set null'))
      .$call(textColumns('sandbox_id?', 'title?', 'created_at', 'updated_at'))
      .execute();
    await createIndexes(db, 'app_conversations', {
      app_conversations_by_user_created: ['user_id', 'created_at', 'id'],
      app_conversations_by_user_updated: ['user_id', 'updated_at', 'id'],
      app_conversations_by_org: ['org_id'],
      app_conversations_by_sandbox: ['sandbox_id'],
    });
  },
};
