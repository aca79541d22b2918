import { type MigrateOptions, type MigrationReport, type Schema, migrate as migrateSchema } from '@bosun/database';
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

export type { MigrateOptions, MigrationReport };
