/** Whether a database error is a unique-constraint violation (SQLite or PostgreSQL). */
export function isUniqueViolation(error: unknown): boolean {
  const { code } = error as { code?: string };
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** Whether a database error is a foreign-key violation (a row naming one that is gone). */
export function isForeignKeyViolation(error: unknown): boolean {
  const { code } = error as { code?: string };
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}
