import { type Kysely, sql } from 'kysely';
import type { Logger } from 'pino';
import { DatabaseOpenError, SchemaTooNewError } from '../errors.ts';
import { MIGRATIONS } from './list.ts';
import type { Dialect, SchemaMigration } from './migration.ts';

const LEDGER = 'bosun_schema_migrations';
/** The PostgreSQL advisory lock that serializes migrations between app replicas starting at once. */
const MIGRATION_LOCK = 4_242_013;

interface LedgerTable {
  bosun_schema_migrations: { name: string; applied_at: string };
}

export interface MigrateOptions {
  dialect: Dialect;
  logger?: Logger;
  /** Apply the steps up to and including this one only (tests build "the previous schema" with it). */
  upTo?: string;
  /** The steps this code knows (all of them unless a test says otherwise). */
  migrations?: readonly SchemaMigration[];
}

export interface MigrationReport {
  /** The steps applied now, in order (none when the schema was current). */
  applied: string[];
  /** The newest step in the database after migrating. */
  version: string | undefined;
}

/**
 * Brings the schema up to date. A database already current costs one query; one with a step this code does not
 * know is refused (SchemaTooNewError) before anything changes. Pending steps run in one transaction (SQLite and
 * PostgreSQL both roll DDL back), under an advisory lock on PostgreSQL so that replicas starting together apply
 * each step once.
 */
export async function migrate(database: Kysely<unknown>, options: MigrateOptions): Promise<MigrationReport> {
  const db = database as unknown as Kysely<LedgerTable>;
  const known = selectSteps(options.migrations ?? MIGRATIONS, options.upTo);
  const before = await appliedSteps(db);
  if (before !== undefined && checkedPending(known, before, options).length === 0) {
    return { applied: [], version: before.at(-1) };
  }
  return exclusively(db, options.dialect, async (trx) => {
    await trx.schema
      .createTable(LEDGER)
      .ifNotExists()
      .addColumn('name', 'text', (col) => col.primaryKey())
      .addColumn('applied_at', 'text', (col) => col.notNull())
      .execute();
    const applied = (await appliedSteps(trx)) ?? [];
    const pending = checkedPending(known, applied, options);
    for (const step of pending) {
      await step.up(trx as unknown as Kysely<unknown>, options.dialect);
      await trx.insertInto(LEDGER).values({ name: step.name, applied_at: new Date().toISOString() }).execute();
      options.logger?.info({ migration: step.name }, 'applied a database migration');
    }
    return { applied: pending.map((step) => step.name), version: pending.at(-1)?.name ?? applied.at(-1) };
  });
}

/**
 * Runs `work` in a transaction no other migrating process runs at the same time: on PostgreSQL under an advisory
 * lock, on SQLite from `BEGIN IMMEDIATE` (the write lock first, so another process that migrated meanwhile is
 * waited for, not a busy error on the first write).
 */
async function exclusively<T>(
  db: Kysely<LedgerTable>,
  dialect: Dialect,
  work: (connection: Kysely<LedgerTable>) => Promise<T>,
): Promise<T> {
  return db.connection().execute(async (connection) => {
    await sql.raw(dialect === 'sqlite' ? 'begin immediate' : 'begin').execute(connection);
    try {
      if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(${MIGRATION_LOCK})`.execute(connection);
      const result = await work(connection);
      await sql`commit`.execute(connection);
      return result;
    } catch (error) {
      await sql`rollback`.execute(connection);
      throw error;
    }
  });
}

function selectSteps(all: readonly SchemaMigration[], upTo: string | undefined): readonly SchemaMigration[] {
  if (upTo === undefined) return all;
  const end = all.findIndex((step) => step.name === upTo);
  if (end < 0) throw new Error(`no migration is named ${upTo}`);
  return all.slice(0, end + 1);
}

/** The steps recorded in the database, oldest first; undefined when it has no ledger yet (a new database). */
async function appliedSteps(db: Kysely<LedgerTable>): Promise<string[] | undefined> {
  try {
    const rows = await db.selectFrom(LEDGER).select('name').orderBy('name').execute();
    return rows.map((row) => row.name);
  } catch (error) {
    if (isMissingTable(error)) return undefined;
    throw error;
  }
}

function checkedPending(
  known: readonly SchemaMigration[],
  applied: string[],
  options: MigrateOptions,
): SchemaMigration[] {
  const knownNames = new Set((options.migrations ?? MIGRATIONS).map((step) => step.name));
  const unknown = applied.filter((name) => !knownNames.has(name));
  const newestKnown = (options.migrations ?? MIGRATIONS).at(-1)?.name ?? 'none';
  if (unknown.length > 0) throw new SchemaTooNewError(unknown.at(-1) as string, newestKnown);
  const appliedNames = new Set(applied);
  const pending = known.filter((step) => !appliedNames.has(step.name));
  const firstPending = known.findIndex((step) => !appliedNames.has(step.name));
  if (firstPending >= 0 && known.slice(firstPending).some((step) => appliedNames.has(step.name))) {
    throw new DatabaseOpenError(
      `the database schema has a gap: ${known[firstPending]?.name} was never applied but later steps were`,
    );
  }
  return pending;
}

function isMissingTable(error: unknown): boolean {
  const { code, message } = error as { code?: string; message?: string };
  return code === '42P01' || (typeof message === 'string' && message.includes(`no such table: ${LEDGER}`));
}
