import type { Kysely } from 'kysely';
import type { SchemaMigration } from './migration.ts';

/**
 * The runtime's id of each sandbox (the app's sandboxes run in a runtime, which names them itself): null until the
 * runtime has started it.
 */
export const sandboxRuntimeIds: SchemaMigration = {
  name: '0010_sandbox_runtime_ids',
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('sandboxes').addColumn('runtime_id', 'text').execute();
  },
};
