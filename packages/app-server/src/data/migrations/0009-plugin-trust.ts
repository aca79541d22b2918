import { createIndexes, textColumns } from '@bosun/database';
import type { Kysely } from 'kysely';
import { type SchemaMigration, createOwnedTable } from './migration.ts';

/**
 * The plugin sources each user confirmed trust in before a conversation loaded them: one row per source and
 * commit (`commit` null: any commit of a source the server does not fetch from, see the app server's README).
 */
export const pluginTrust: SchemaMigration = {
  name: '0009_plugin_trust',
  async up(db: Kysely<unknown>) {
    // `commit_sha` '' for "any commit": a unique index treats NULLs as distinct.
    await createOwnedTable(db, 'plugin_trust')
      .$call(textColumns('source', 'commit_sha', 'confirmed_at'))
      .execute();
    await createIndexes(db, 'plugin_trust', {
      plugin_trust_by_source: { unique: ['user_id', 'source', 'commit_sha'] },
    });
  },
};
