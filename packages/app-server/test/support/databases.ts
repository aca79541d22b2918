import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe } from 'vitest';
import {
  type AppDatabase,
  type Dialect,
  KeyRing,
  type OpenDatabaseOptions,
  type Repositories,
  createRepositories,
  newSecretsKey,
  openDatabase,
} from '../../src/data/index.ts';

/** The PostgreSQL server of the tests (trust auth); each test database is created on it and dropped after. */
export const POSTGRES_SERVER = process.env.BOSUN_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432';

/** Where a database lives: a data directory (SQLite's file, key files) and, on PostgreSQL, a URL. */
export interface DatabaseTarget {
  dialect: Dialect;
  dataDir: string;
  url?: string;
  /** The PostgreSQL database's name (on SQLite: undefined). */
  databaseName?: string;
}

/** An open database with its repositories and the key ring they seal with. */
export interface OpenedData {
  database: AppDatabase;
  keyRing: KeyRing;
  repositories: Repositories;
}

export interface EachDatabase {
  dialect: Dialect;
  /** A new, empty place for a database (a new temp dir; on PostgreSQL a unique name, not created yet). */
  target(): Promise<DatabaseTarget>;
  /** Opens the database of `target` (a new one by default; created if needed), closed after the file's tests. */
  open(options?: Partial<OpenDatabaseOptions> & { target?: DatabaseTarget }): Promise<AppDatabase>;
  /** One database per file and dialect with repositories, opened on first use (tests use their own users). */
  shared(): Promise<OpenedData>;
}

/**
 * Declares the tests of `body` twice: on SQLite and on the real PostgreSQL. Every database they make is closed,
 * and every PostgreSQL database dropped and temp dir removed, after the file's tests.
 */
export function describeEachDatabase(name: string, body: (each: EachDatabase) => void): void {
  for (const dialect of ['sqlite', 'postgres'] as const) {
    describe(`${name} (${dialect})`, () => {
      const each = eachDatabase(dialect);
      afterAll(() => each.cleanUp());
      body(each);
    });
  }
}

function eachDatabase(dialect: Dialect): EachDatabase & { cleanUp(): Promise<void> } {
  const targets: DatabaseTarget[] = [];
  const opened: AppDatabase[] = [];
  let shared: Promise<OpenedData> | undefined;
  const each = {
    dialect,
    async target() {
      const dataDir = await mkdtemp(join(tmpdir(), 'bosun-data-'));
      const databaseName = dialect === 'postgres' ? `bosun_test_${randomBytes(6).toString('hex')}` : undefined;
      const target = { dialect, dataDir, databaseName, url: databaseName && `${POSTGRES_SERVER}/${databaseName}` };
      targets.push(target);
      return target;
    },
    async open(options: Partial<OpenDatabaseOptions> & { target?: DatabaseTarget } = {}) {
      const { target = await each.target(), ...rest } = options;
      const database = await openDatabase({ dataDir: target.dataDir, url: target.url, createDatabase: true, ...rest });
      opened.push(database);
      return database;
    },
    shared() {
      shared ??= (async () => {
        const keyRing = new KeyRing(newSecretsKey());
        const database = await each.open({ keyRing });
        return { database, keyRing, repositories: createRepositories(database, keyRing) };
      })();
      return shared;
    },
    async cleanUp() {
      await Promise.all(opened.map((database) => database.close()));
      const names = targets.map((target) => target.databaseName).filter((name) => name !== undefined);
      if (names.length > 0) await dropDatabases(names);
      await Promise.all(targets.map((target) => rm(target.dataDir, { recursive: true, force: true })));
    },
  };
  return each;
}

/** Drops test databases (those never created are skipped), ending any connection still open to them. */
export async function dropDatabases(names: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: `${POSTGRES_SERVER}/postgres` });
  await client.connect();
  try {
    for (const name of names) await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/** Runs `sql` on a test PostgreSQL database directly (to build states the code never writes). */
export async function onPostgres<T>(databaseName: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: `${POSTGRES_SERVER}/${databaseName}` });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}
