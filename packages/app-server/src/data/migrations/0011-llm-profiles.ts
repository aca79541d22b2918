import { createIndexes, textColumns } from '@bosun/database';
import type { Kysely } from 'kysely';
import { type Dialect, type SchemaMigration, codePointText, createOwnedTable } from './migration.ts';

/**
 * Each user's LLM profiles: named LLM configurations, unique by name per user. The secrets of one (its API key) are
 * sealed together in `sealed`, bound to the row's id (a rename keeps them); `active` is 1 on the profile whose LLM
 * the user's settings took by its activation, 0 on the others.
 */
export const llmProfiles: SchemaMigration = {
  name: '0011_llm_profiles',
  async up(db: Kysely<unknown>, dialect: Dialect) {
    await createOwnedTable(db, 'llm_profiles')
      .addColumn('name', codePointText(dialect), (col) => col.notNull())
      .$call(textColumns('model', 'base_url?', 'key_id', 'sealed'))
      .addColumn('active', 'integer', (col) => col.notNull().defaultTo(0))
      .$call(textColumns('created_at', 'updated_at'))
      .addUniqueConstraint('llm_profiles_user_name', ['user_id', 'name'])
      .execute();
    await createIndexes(db, 'llm_profiles', { llm_profiles_by_key: ['key_id'] });
  },
};
