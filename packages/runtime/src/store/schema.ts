import type { Schema, SchemaMigration } from '@bosun/database';

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
    await db.schema
      .createTable('runtime_sandboxes')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('session_id', 'text', (col) => col.notNull())
      .addColumn('spec_sealed', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('changed_at', 'text', (col) => col.notNull())
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('status_detail', 'text')
      .addColumn('pool', 'text')
      .execute();
    await db.schema.createIndex('runtime_sandboxes_created').on('runtime_sandboxes').column('created_at').execute();
  },
};

export const RUNTIME_SCHEMA: Schema = {
  migrations: [sandboxes],
  ledger: 'bosun_runtime_schema_migrations',
  lock: 4_242_015,
};
