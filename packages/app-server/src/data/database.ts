import type Database from 'better-sqlite3';
import { Kysely, sql } from 'kysely';
import type { Logger } from 'pino';
import { DatabaseOpenError } from './errors.ts';
import { type Dialect, migrate } from './migrations/index.ts';
import { isPostgresUrl, postgresDialect } from './postgres.ts';
import { resealStale } from './sealed-rows.ts';
import type { KeyRing } from './secret-cipher.ts';
import { sqliteDialect } from './sqlite.ts';
import type { Tables } from './tables.ts';

export interface OpenDatabaseOptions {
  /** `postgres://…` or `postgresql://…`; absent means SQLite in `<dataDir>/app.db`. */
  url?: string;
  dataDir: string;
  /** Create the PostgreSQL database when it does not exist (else that is a DatabaseMissingError). */
  createDatabase?: boolean;
  logger?: Logger;
  /** When given, values sealed with a previous key are sealed again with the current one, and a key that cannot
   *  open what is stored is refused (SecretsKeyError) before anything changes. */
  keyRing?: KeyRing;
}

export interface AppDatabase {
  db: Kysely<Tables>;
  dialect: Dialect;
  close(): Promise<void>;
  /** Resolves when the database answers (for `/ready`). */
  ping(): Promise<void>;
}

/** Opens the app's database, brings its schema up to date, and re-seals secrets after a key rotation. */
export async function openDatabase(options: OpenDatabaseOptions): Promise<AppDatabase> {
  const database = await connectDatabase(options);
  try {
    const report = await migrate(database.db as Kysely<unknown>, { dialect: database.dialect, logger: options.logger });
    options.logger?.debug({ dialect: database.dialect, schema: report.version }, 'opened the app database');
    if (options.keyRing) {
      const resealed = await resealStale(database.db, options.keyRing);
      if (resealed > 0) {
        await database.afterReseal();
        options.logger?.info({ resealed }, 'sealed secrets again with the current secrets key');
      }
    }
  } catch (error) {
    await database.close();
    throw error;
  }
  const { afterReseal: _, ...appDatabase } = database;
  return appDatabase;
}

export interface Connected extends AppDatabase {
  /** Drops what a rotation left behind (SQLite: the old page versions in the write-ahead log). */
  afterReseal(): Promise<void>;
}

/** The database, connected but not migrated (openDatabase migrates; tests build older schemas with this). */
export async function connectDatabase(options: OpenDatabaseOptions): Promise<Connected> {
  if (options.url !== undefined && options.url !== '') {
    if (!isPostgresUrl(options.url)) {
      throw new DatabaseOpenError(
        'the database URL must start with postgres:// or postgresql:// (or be absent for SQLite)',
      );
    }
    const { dialect } = await postgresDialect(options.url, options);
    return connected(new Kysely<Tables>({ dialect }), 'postgres', async () => {});
  }
  const { dialect, database } = sqliteDialect(options.dataDir);
  return connected(new Kysely<Tables>({ dialect }), 'sqlite', async () => checkpoint(database));
}

function connected(db: Kysely<Tables>, dialect: Dialect, afterReseal: () => Promise<void>): Connected {
  let closing: Promise<void> | undefined;
  return {
    db,
    dialect,
    afterReseal,
    close: () => {
      closing ??= db.destroy();
      return closing;
    },
    ping: async () => {
      await sql`select 1`.execute(db);
    },
  };
}

async function checkpoint(database: Database.Database): Promise<void> {
  database.pragma('wal_checkpoint(TRUNCATE)');
}
