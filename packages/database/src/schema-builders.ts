import type { CreateTableBuilder, Kysely } from 'kysely';

/** A column's name without the `?` that marks it nullable in `textColumns`. */
type ColumnName<S extends string> = S extends `${infer Name}?` ? Name : S;

/**
 * Text columns, added in the order given: `not null`, but for a name ending in `?` (that column allows null), as a
 * TypeScript optional property reads. For `$call` on a table being created.
 */
export function textColumns<S extends string>(...columns: S[]) {
  return <TB extends string, C extends string>(table: CreateTableBuilder<TB, C>) => {
    let built: CreateTableBuilder<TB, C | ColumnName<S>> = table;
    for (const column of columns) {
      const name = column.replace(/\?$/, '') as ColumnName<S>;
      built = column.endsWith('?')
        ? built.addColumn(name, 'text')
        : built.addColumn(name, 'text', (col) => col.notNull());
    }
    return built;
  };
}

/** A new table whose rows are identified by a text `id` (a UUID), its first column. */
export function createIdTable<TB extends string>(db: Kysely<unknown>, table: TB) {
  return db.schema.createTable(table).addColumn('id', 'text', (col) => col.primaryKey());
}

/** The columns of one index, in order; `unique` for a unique index. */
export type IndexColumns = string[] | { unique: string[] };

/** Creates `table`'s indexes, by name, in the order given. */
export async function createIndexes(
  db: Kysely<unknown>,
  table: string,
  indexes: Readonly<Record<string, IndexColumns>>,
): Promise<void> {
  for (const [name, columns] of Object.entries(indexes)) {
    const index = db.schema.createIndex(name).on(table);
    await ('unique' in columns ? index.unique().columns(columns.unique) : index.columns(columns)).execute();
  }
}
