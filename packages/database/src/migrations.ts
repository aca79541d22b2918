import { type Kysely, sql } from 'kysely';
import { DatabaseOpenError, SchemaTooNewError } from './errors.ts';
import type { DatabaseLogger } from './logger.ts';

export type Dialect = 'sqlite' | 'postgres';

/** One step of a schema, written once for both dialects. Names sort in the order the steps apply. */
export interface SchemaMigration {
  name: string;
  up(db: Kysely<unknown>, dialect: Dialect): Promise<void>;
}

/** Whose schema it is: its steps, the table recording them, and the lock that serializes migrating it. */
export interface Schema {
  /** Every step, in order. */
  migrations: readonly SchemaMigration[];
  /** The table of applied steps (one per schema: two schemas may share a database). */
  ledger: string;
  /** The PostgreSQL advisory lock that serializes migrations between replicas starting at once. */
  lock: number;
}

/** Every ledger has this table's shape (its name is the schema's). */
type LedgerTable = Record<string, { name: string; applied_at: string }>;

export interface MigrateOptions {
  dialect: Dialect;
  logger?: DatabaseLogger;
  /** Apply the steps up to and including this one only (tests build "the previous schema" with it). */
  upTo?: string;
  /** The steps this code knows (all of the schema's unless a test says otherwise). */
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
export async function migrate(
  database: Kysely<unknown>,
  schema: Schema,
  options: MigrateOptions,
): Promise<MigrationReport> {
  const db = database as unknown as Kysely<LedgerTable>;
  const all = options.migrations ?? schema.migrations;
  const known = selectSteps(all, options.upTo);
  const ledger = new Ledger(schema.ledger);
  const before = await ledger.applied(db);
  if (before !== undefined && checkedPending(known, before, all).length === 0) {
    return { applied: [], version: before.at(-1) };
  }
  const report = await exclusively(db, options.dialect, schema.lock, async (trx) => {
    await trx.schema
      .createTable(schema.ledger)
      .ifNotExists()
      .addColumn('name', 'text', (col) => col.primaryKey())
      .addColumn('applied_at', 'text', (col) => col.notNull())
      .execute();
    const applied = (await ledger.applied(trx)) ?? [];
    const pending = checkedPending(known, applied, all);
    for (const step of pending) {
      await step.up(trx as unknown as Kysely<unknown>, options.dialect);
      await trx.insertInto(schema.ledger).values({ name: step.name, applied_at: new Date().toISOString() }).execute();
    }
    return { applied: pending.map((step) => step.name), version: pending.at(-1)?.name ?? applied.at(-1) };
  });
  // One line once committed (a new database applies them all: one line each drowned the start's banner).
  const count = report.applied.length;
  if (count > 0) {
    const what = count === 1 ? 'a database migration' : `${count} database migrations`;
    options.logger?.info({ migrations: report.applied }, `applied ${what}, now at ${report.version}`);
  }
  return report;
}

/**
 * The steps of `schema` the database lacks, oldest first, changing nothing (a new database lacks them all). A step
 * this code does not know is refused (SchemaTooNewError), as by `migrate`.
 */
export async function pendingMigrations(database: Kysely<unknown>, schema: Schema): Promise<string[]> {
  const applied = await new Ledger(schema.ledger).applied(database as unknown as Kysely<LedgerTable>);
  return checkedPending(schema.migrations, applied ?? [], schema.migrations).map((step) => step.name);
}

/**
 * Runs `work` in a transaction no other migrating process runs at the same time: on PostgreSQL under an advisory
 * lock, on SQLite from `BEGIN IMMEDIATE` (the write lock first, so another process that migrated meanwhile is
 * waited for, not a busy error on the first write).
 */
async function exclusively<T>(
  db: Kysely<LedgerTable>,
  dialect: Dialect,
  lock: number,
  work: (connection: Kysely<LedgerTable>) => Promise<T>,
): Promise<T> {
  return db.connection().execute(async (connection) => {
    await sql.raw(dialect === 'sqlite' ? 'begin immediate' : 'begin').execute(connection);
    try {
      if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(${lock})`.execute(connection);
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

class Ledger {
  constructor(private readonly table: string) {}

  /** The steps recorded in the database, oldest first; undefined when it has no ledger yet (a new database). */
  async applied(db: Kysely<LedgerTable>): Promise<string[] | undefined> {
    try {
      const rows = await db.selectFrom(this.table).select('name').orderBy('name').execute();
      return rows.map((row) => row.name);
    } catch (error) {
      if (isMissingTable(error, this.table)) return undefined;
      throw error;
    }
  }
}

function checkedPending(
  known: readonly SchemaMigration[],
  applied: string[],
  all: readonly SchemaMigration[],
): SchemaMigration[] {
  const knownNames = new Set(all.map((step) => step.name));
  const unknown = applied.filter((name) => !knownNames.has(name));
  const newestKnown = all.at(-1)?.name ?? 'none';
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

function isMissingTable(error: unknown, table: string): boolean {
  const { code, message } = error as { code?: string; message?: string };
  return code === '42P01' || (typeof message === 'string' && message.includes(`no such table: ${table}`));
}
