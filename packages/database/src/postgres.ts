import { PostgresDialect } from 'kysely';
import type { Pool } from 'pg';
import { DatabaseMissingError, DatabaseOpenError } from './errors.ts';
import type { DatabaseLogger } from './logger.ts';

type PgModule = typeof import('pg').default;
let loaded: Promise<PgModule> | undefined;
/** The PostgreSQL client, loaded on first use: what keeps its data in SQLite never pays for loading it. */
function pgModule(): Promise<PgModule> {
  loaded ??= import('pg').then((module) => module.default);
  return loaded;
}

const POOL_SIZE = 10;
const CONNECT_TIMEOUT_MS = 10_000;

/** Whether a database URL names PostgreSQL. */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(?:ql)?:\/\//i.test(url);
}

/**
 * A pool on the PostgreSQL database of `url`, checked by one connection. A missing database is created (through
 * the `postgres` maintenance database) when `createDatabase` allows it, else it is a DatabaseMissingError.
 */
export async function postgresDialect(
  url: string,
  options: { createDatabase?: boolean; logger?: DatabaseLogger },
): Promise<{ dialect: PostgresDialect; pool: Pool }> {
  const target = parseUrl(url);
  const pool = newPool(await pgModule(), url, options.logger);
  try {
    await checkConnection(pool);
  } catch (error) {
    await pool.end();
    if (pgCode(error) !== '3D000') throw unreachable(target, error);
    if (!options.createDatabase) {
      throw new DatabaseMissingError(
        [
          `the PostgreSQL database "${target.database}" does not exist on ${target.server}:`,
          'create it, or allow the server to create it (createDatabases)',
        ].join(' '),
      );
    }
    await createDatabase(target);
    options.logger?.info({ database: target.database, server: target.server }, 'created the PostgreSQL database');
    return postgresDialect(url, { ...options, createDatabase: false });
  }
  return { dialect: new PostgresDialect({ pool }), pool };
}

interface PostgresTarget {
  url: URL;
  database: string;
  /** host:port, for messages (never the password). */
  server: string;
}

function parseUrl(url: string): PostgresTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new DatabaseOpenError('the database URL is not a valid URL (expected postgres://user@host:5432/name)');
  }
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
  if (database === '') throw new DatabaseOpenError('the database URL names no database (postgres://host/<name>)');
  return { url: parsed, database, server: `${parsed.hostname}:${parsed.port || '5432'}` };
}

function newPool(pg: PgModule, url: string, logger: DatabaseLogger | undefined): Pool {
  const pool = new pg.Pool({ connectionString: url, max: POOL_SIZE, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  // An idle client losing its connection must not crash the process: the pool replaces it on next use.
  pool.on('error', (error) => logger?.warn({ err: error.message }, 'an idle PostgreSQL connection failed'));
  return pool;
}

async function checkConnection(pool: Pool): Promise<void> {
  const client = await pool.connect();
  client.release();
}

async function createDatabase(target: PostgresTarget): Promise<void> {
  const maintenance = new URL(target.url);
  maintenance.pathname = '/postgres';
  const pg = await pgModule();
  const client = new pg.Client({
    connectionString: maintenance.toString(),
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  try {
    await client.connect();
    await client.query(`CREATE DATABASE ${quoteIdentifier(target.database)}`);
  } catch (error) {
    // Another replica created it first (a race shows as a unique violation on pg_database).
    if (pgCode(error) === '42P04' || pgCode(error) === '23505') return;
    throw new DatabaseOpenError(
      `cannot create the PostgreSQL database "${target.database}" on ${target.server}: ${(error as Error).message}`,
    );
  } finally {
    await client.end().catch(() => {});
  }
}

export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

function unreachable(target: PostgresTarget, error: unknown): DatabaseOpenError {
  return new DatabaseOpenError(
    `cannot connect to the PostgreSQL database "${target.database}" on ${target.server}: ${(error as Error).message}`,
  );
}

function pgCode(error: unknown): string | undefined {
  return (error as { code?: string }).code;
}
