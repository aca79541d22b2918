import { SQLITE_CONSTRAINT, isSqliteError } from '@bosun/database';

/** Whether a database error is a unique-constraint violation (SQLite or PostgreSQL). */
export function isUniqueViolation(error: unknown): boolean {
  const { code } = error as { code?: string };
  return code === '23505' || isSqliteError(error, [SQLITE_CONSTRAINT.UNIQUE, SQLITE_CONSTRAINT.PRIMARYKEY]);
}

/** Whether a database error is a foreign-key violation (a row naming one that is gone). */
export function isForeignKeyViolation(error: unknown): boolean {
  const { code } = error as { code?: string };
  return code === '23503' || isSqliteError(error, [SQLITE_CONSTRAINT.FOREIGNKEY]);
}
