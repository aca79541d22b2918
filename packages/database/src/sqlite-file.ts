import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';

export type SqliteFile = DatabaseSync;
export type SqliteStatement = StatementSync;
/** What a statement's parameter may be bound to. */
export type SqlValue = SQLInputValue;

/**
 * The SQLite database in `path` (its directory made), with each of `pragmas` (`journal_mode = WAL`...) set.
 * Node's own SQLite: nothing to compile at install (a native addon built SQLite for two minutes on each new
 * machine).
 */
export function openSqliteFile(path: string, pragmas: readonly string[]): SqliteFile {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const file = new DatabaseSync(path);
  try {
    for (const pragma of pragmas) file.exec(`PRAGMA ${pragma}`);
  } catch (error) {
    file.close();
    throw error;
  }
  return file;
}

/** Closes `file`; closing it again does nothing (Node's SQLite throws when the file is closed already). */
export function closeSqliteFile(file: SqliteFile): void {
  if (file.isOpen) file.close();
}

/**
 * Runs `work` in a transaction: committed when it returns, rolled back when it throws (the error then goes on).
 * Inside another transaction it is a savepoint, which a throw rolls back alone.
 */
export function inTransaction<T>(file: SqliteFile, work: () => T): T {
  const nested = file.isTransaction;
  file.exec(nested ? 'SAVEPOINT nested' : 'BEGIN');
  try {
    const result = work();
    file.exec(nested ? 'RELEASE nested' : 'COMMIT');
    return result;
  } catch (error) {
    if (nested) file.exec('ROLLBACK TO nested; RELEASE nested');
    // SQLite may have rolled back already (a full disk, an interrupted statement).
    else if (file.isTransaction) file.exec('ROLLBACK');
    throw error;
  }
}

/** Whether `error` is SQLite's, with one of `codes` (extended result codes, such as 2067 for a unique constraint). */
export function isSqliteError(error: unknown, codes: readonly number[]): boolean {
  const { code, errcode } = error as { code?: unknown; errcode?: unknown };
  return code === 'ERR_SQLITE_ERROR' && typeof errcode === 'number' && codes.includes(errcode);
}

/** SQLite's extended result codes that Bosun tells apart. */
export const SQLITE_CONSTRAINT = { UNIQUE: 2067, PRIMARYKEY: 1555, FOREIGNKEY: 787 } as const;
