import { Kysely, sql } from 'kysely';
import { DatabaseOpenError } from './errors.ts';
import type { DatabaseLogger } from './logger.ts';
import type { Dialect } from './migrations.ts';
import { isPostgresUrl, postgresDialect } from './postgres.ts';
import type { SqliteFile } from './sqlite-file.ts';
import { sqliteDialect } from './sqlite.ts';

export interface ConnectOptions {
  /** `postgres://…` or `postgresql://…`; absent or empty means SQLite in `sqlitePath`. */
  url?: string;
  sqlitePath: string;
  /** Create the PostgreSQL database when it does not exist (else that is a DatabaseMissingError). */
  createDatabase?: boolean;
  logger?: DatabaseLogger;
}

export interface ConnectedDatabase<T> {
  db: Kysely<T>;
  dialect: Dialect;
  /** The SQLite file's handle (for pragmas such as a checkpoint); none on PostgreSQL. */
  sqlite: SqliteFile | undefined;
  /** Idempotent. */
  close(): Promise<void>;
  /** Resolves when the database answers (for a readiness probe). */
  ping(): Promise<void>;
}

/** SQLite or PostgreSQL by `url`, connected (not migrated). */
export async function connectDatabase<T>(options: ConnectOptions): Promise<ConnectedDatabase<T>> {
  if (options.url !== undefined && options.url !== '') {
    if (!isPostgresUrl(options.url)) {
      throw new DatabaseOpenError(
        'the database URL must start with postgres:// or postgresql:// (or be absent for SQLite)',
      );
    }
    const { dialect } = await postgresDialect(options.url, options);
    return connected(new Kysely<T>({ dialect }), 'postgres', undefined);
  }
  const { dialect, database } = sqliteDialect(options.sqlitePath);
  return connected(new Kysely<T>({ dialect }), 'sqlite', database);
}

function connected<T>(db: Kysely<T>, dialect: Dialect, sqlite: SqliteFile | undefined): ConnectedDatabase<T> {
  let closing: Promise<void> | undefined;
  return {
    db,
    dialect,
    sqlite,
    close: () => {
      closing ??= db.destroy();
      return closing;
    },
    ping: async () => {
      await sql`select 1`.execute(db);
    },
  };
}
