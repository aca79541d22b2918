/** Whether a database error is a unique-constraint violation (SQLite or PostgreSQL). */
export function isUniqueViolation(error: unknown): boolean {
  const { code } = error as { code?: string };
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** Counts as numbers whichever driver returns them (PostgreSQL's count is a bigint, sent as text). */
export function countOf(row: { count: string | number | bigint } | undefined): number {
  return Number(row?.count ?? 0);
}
