import type { SqliteDatabase, SqliteStatement } from 'kysely';
import { SqliteDialect } from 'kysely';
import { DatabaseOpenError } from './errors.ts';
import { type SqlValue, type SqliteFile, closeSqliteFile, openSqliteFile } from './sqlite-file.ts';

const PRAGMAS = [
  'busy_timeout = 5000',
  'journal_mode = WAL',
  'synchronous = FULL',
  'foreign_keys = ON',
  // Overwritten and deleted rows (old sealed values after a key rotation) are zeroed, not left in free pages.
  'secure_delete = ON',
];

/** A SQLite database on `path` (its directory made): WAL, foreign keys enforced, deleted content zeroed. */
export function sqliteDialect(path: string): { dialect: SqliteDialect; database: SqliteFile } {
  let database: SqliteFile;
  try {
    database = openSqliteFile(path, PRAGMAS);
  } catch (error) {
    throw new DatabaseOpenError(`cannot open the SQLite database ${path}: ${(error as Error).message}`);
  }
  return { dialect: new SqliteDialect({ database: forKysely(database) }), database };
}

/** Node's SQLite as Kysely's driver expects it (better-sqlite3's calls: parameters in an array). */
function forKysely(file: SqliteFile): SqliteDatabase {
  return {
    close: () => closeSqliteFile(file),
    prepare: (sql: string): SqliteStatement => {
      const statement = file.prepare(sql);
      return {
        reader: statement.columns().length > 0,
        all: (parameters) => statement.all(...(parameters as SqlValue[])),
        run: (parameters) => statement.run(...(parameters as SqlValue[])),
        iterate: (parameters) => statement.iterate(...(parameters as SqlValue[])),
      };
    },
  };
}
