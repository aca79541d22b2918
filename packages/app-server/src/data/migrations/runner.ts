import {
  DatabaseOpenError,
  type MigrateOptions,
  type MigrationReport,
  type Schema,
  migrate as migrateSchema,
  pendingMigrations,
} from '@bosun/database';
import type { Kysely } from 'kysely';
import { MIGRATIONS } from './list.ts';

/** The app's schema: its steps, its ledger, and the lock serializing app replicas that migrate at once. */
export const APP_SCHEMA: Schema = { migrations: MIGRATIONS, ledger: 'bosun_schema_migrations', lock: 4_242_013 };

/**
 * Brings the app's schema up to date (see `migrate` in @bosun/database: one query when current, a step this code
 * does not know refused before anything changes, pending steps in one transaction under a lock).
 */
export function migrate(database: Kysely<unknown>, options: MigrateOptions): Promise<MigrationReport> {
  return migrateSchema(database, APP_SCHEMA, options);
}

/** The app's steps the database lacks, oldest first; nothing changes. */
export function pendingAppMigrations(database: Kysely<unknown>): Promise<string[]> {
  return pendingMigrations(database, APP_SCHEMA);
}

/** The server was told not to migrate (migrate_on_start false) and the schema is behind: it cannot run on it. */
export class SchemaBehindError extends DatabaseOpenError {
  constructor(readonly pending: string[]) {
    const steps = `${pending.length} migration${pending.length === 1 ? '' : 's'}`;
    const action = 'Run `bosun migrate` with the same database settings first (or set migrate_on_start to true).';
    super(`the database schema is behind this Bosun: ${steps} pending (${pending.join(', ')}). ${action}`);
  }
}

/** Refuses a database whose schema lacks a step of this code (SchemaBehindError), or a newer one. */
export async function requireCurrentSchema(database: Kysely<unknown>): Promise<void> {
  const pending = await pendingAppMigrations(database);
  if (pending.length > 0) throw new SchemaBehindError(pending);
}

export type { MigrateOptions, MigrationReport };
