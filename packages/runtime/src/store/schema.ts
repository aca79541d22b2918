import { type Schema, type SchemaMigration, createIdTable, createIndexes, textColumns } from '@bosun/database';

/** The runtime's table of sandboxes (its own ledger and lock: it may share a database with the app). */
export interface RuntimeTables {
  runtime_sandboxes: {
    id: string;
    session_id: string;
    /** The spec as JSON, sealed (AES-256-GCM, bound to the id): its environment may hold credentials. */
    spec_sealed: string;
    created_at: string;
    changed_at: string;
    status: string;
    status_detail: string | null;
    pool: string | null;
  };
}

const sandboxes: SchemaMigration = {
  name: '0001-runtime-sandboxes',
  async up(db) {
    await createIdTable(db, 'runtime_sandboxes')
      .$call(textColumns('session_id', 'spec_sealed', 'created_at', 'changed_at', 'status', 'status_detail?', 'pool?'))
      .execute();
    await createIndexes(db, 'runtime_sandboxes', { runtime_sandboxes_created: ['created_at'] });
  },
};

export const RUNTIME_SCHEMA: Schema = {
  migrations: [sandboxes],
  ledger: 'bosun_runtime_schema_migrations',
  lock: 4_242_015,
};
