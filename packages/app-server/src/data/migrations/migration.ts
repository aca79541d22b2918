import { type Kysely, type RawBuilder, sql } from 'kysely';

export type Dialect = 'sqlite' | 'postgres';

/** One step of the schema, written once for both dialects. Names sort in the order the steps apply. */
export interface SchemaMigration {
  name: string;
  up(db: Kysely<unknown>, dialect: Dialect): Promise<void>;
}

/** Text that sorts and compares by code point on both dialects (PostgreSQL's default collation follows the locale). */
export function codePointText(dialect: Dialect): RawBuilder<unknown> {
  return dialect === 'postgres' ? sql`text collate "C"` : sql`text collate binary`;
}
