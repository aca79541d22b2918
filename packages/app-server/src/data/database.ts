import { connectDatabase as connectEither } from '@bosun/database';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { type Dialect, migrate, requireCurrentSchema } from './migrations/index.ts';
import { resealStale } from './sealed-rows.ts';
import type { KeyRing } from './secret-cipher.ts';
import { sqlitePath } from './sqlite.ts';
import type { Tables } from './tables.ts';

export interface OpenDatabaseOptions {
  /** `postgres://…` or `postgresql://…`; absent means SQLite in `<dataDir>/app.db`. */
  url?: string;
  dataDir: string;
  /** Create the PostgreSQL database when it does not exist (else that is a DatabaseMissingError). */
  createDatabase?: boolean;
  logger?: Logger;
  /** Bring the schema up to date (the default); false: refuse one that is behind (SchemaBehindError), as a replica
   *  does when a separate step (`bosun migrate`) migrates. */
  migrate?: boolean;
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
    const db = database.db as Kysely<unknown>;
    if (options.migrate === false) await requireCurrentSchema(db);
    else {
      const report = await migrate(db, { dialect: database.dialect, logger: options.logger });
      options.logger?.debug({ dialect: database.dialect, schema: report.version }, 'opened the app database');
    }
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
  const { sqlite, ...database } = await connectEither<Tables>({
    ...(options.url === undefined ? {} : { url: options.url }),
    sqlitePath: sqlitePath(options.dataDir),
    ...(options.createDatabase === undefined ? {} : { createDatabase: options.createDatabase }),
    ...(options.logger ? { logger: options.logger } : {}),
  });
  return {
    ...database,
    // Drops the old page versions a rotation left in SQLite's write-ahead log.
    afterReseal: async () => {
      sqlite?.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    },
  };
}
