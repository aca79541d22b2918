import type { Kysely } from 'kysely';
import { type OpenDatabaseOptions, connectDatabase } from './database.ts';
import { type Dialect, MIGRATIONS, migrate, pendingAppMigrations } from './migrations/index.ts';

export interface SchemaStepReport {
  dialect: Dialect;
  /** The steps applied now, oldest first (none with `check`). */
  applied: string[];
  /** The steps still to apply (none after migrating). */
  pending: string[];
  /** The newest step this code knows: what the schema is at once nothing is pending. */
  newest: string | undefined;
}

/**
 * Migrating as a step of its own (`bosun migrate`, a chart's Job or init container): brings the app's schema up
 * to date, or with `check` only says what it lacks. Secrets are not touched: a server re-seals them at its start.
 */
export async function migrateAppSchema(
  options: Omit<OpenDatabaseOptions, 'keyRing' | 'migrate'> & { check?: boolean },
): Promise<SchemaStepReport> {
  const database = await connectDatabase(options);
  const db = database.db as Kysely<unknown>;
  const newest = MIGRATIONS.at(-1)?.name;
  try {
    if (options.check) {
      return { dialect: database.dialect, applied: [], pending: await pendingAppMigrations(db), newest };
    }
    const report = await migrate(db, {
      dialect: database.dialect,
      ...(options.logger ? { logger: options.logger } : {}),
    });
    return { dialect: database.dialect, applied: report.applied, pending: [], newest };
  } finally {
    await database.close();
  }
}
