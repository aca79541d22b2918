import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteDialect } from 'kysely';
import { DatabaseOpenError } from './errors.ts';

const BUSY_TIMEOUT_MS = 5_000;

/** A better-sqlite3 database on `path` (its directory made): WAL, foreign keys enforced, deleted content zeroed. */
export function sqliteDialect(path: string): { dialect: SqliteDialect; database: Database.Database } {
  let database: Database.Database | undefined;
  try {
    mkdirSync(dirname(path), { recursive: true });
    database = new Database(path, { timeout: BUSY_TIMEOUT_MS });
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = FULL');
    database.pragma('foreign_keys = ON');
    // Overwritten and deleted rows (old sealed values after a key rotation) are zeroed, not left in free pages.
    database.pragma('secure_delete = ON');
  } catch (error) {
    database?.close();
    throw new DatabaseOpenError(`cannot open the SQLite database ${path}: ${(error as Error).message}`);
  }
  return { dialect: new SqliteDialect({ database }), database };
}
