import { type Dialect, createIdTable } from '@bosun/database';
import { type ColumnDefinitionBuilder, type Kysely, type RawBuilder, sql } from 'kysely';

export type { Dialect, SchemaMigration } from '@bosun/database';

/** Text that sorts and compares by code point on both dialects (PostgreSQL's default collation follows the locale). */
export function codePointText(dialect: Dialect): RawBuilder<unknown> {
  return dialect === 'postgres' ? sql`text collate "C"` : sql`text collate binary`;
}

/** A user's id in a row that belongs to them: deleting the user deletes the row. */
export function userReference(col: ColumnDefinitionBuilder): ColumnDefinitionBuilder {
  return col.notNull().references('users.id').onDelete('cascade');
}

/** A new table of rows each owned by a user: `id`, then `user_id`. */
export function createOwnedTable<TB extends string>(db: Kysely<unknown>, table: TB) {
  return createIdTable(db, table).addColumn('user_id', 'text', userReference);
}
