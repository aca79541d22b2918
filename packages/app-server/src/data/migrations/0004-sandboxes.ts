import { createIndexes, textColumns } from '@bosun/database';
import type { Kysely } from 'kysely';
import { type SchemaMigration, createOwnedTable } from './migration.ts';

/**
 * Sandboxes: who owns each, its status and why, and the SHA-256 of its current session key (never the key: the
 * app keeps that in memory only). Searched per user, newest first; found by key hash when a sandbox calls in.
 */
export const sandboxes: SchemaMigration = {
  name: '0004_sandboxes',
  async up(db: Kysely<unknown>) {
    await createOwnedTable(db, 'sandboxes')
      .$call(textColumns('spec_id', 'status', 'status_detail?', 'session_api_key_hash?'))
      .$call(textColumns('created_at', 'started_at?', 'updated_at'))
      .execute();
    await createIndexes(db, 'sandboxes', {
      sandboxes_by_user_created: ['user_id', 'created_at', 'id'],
      sandboxes_by_session_key: { unique: ['session_api_key_hash'] },
      sandboxes_by_status: ['status'],
    });
  },
};
