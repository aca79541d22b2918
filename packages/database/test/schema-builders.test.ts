import {
  type Dialect,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import { describe, expect, it } from 'vitest';
import { createIdTable, createIndexes, textColumns } from '../src/index.ts';

const DIALECTS: Record<'sqlite' | 'postgres', Dialect> = {
  sqlite: {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  },
  postgres: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
};

/** A Kysely that runs nothing and keeps the SQL it was given. */
function recording(dialect: 'sqlite' | 'postgres'): { db: Kysely<unknown>; statements: string[] } {
  const statements: string[] = [];
  const db = new Kysely<unknown>({
    dialect: DIALECTS[dialect],
    log: (event) => {
      statements.push(event.query.sql);
    },
  });
  return { db, statements };
}

describe.each(['sqlite', 'postgres'] as const)('schema builders (%s)', (dialect) => {
  it('creates a table with a text id first, then text columns in order, nullable where marked `?`', () => {
    const { db } = recording(dialect);
    const table = createIdTable(db, 'things').$call(textColumns('name', 'note?', 'created_at'));
    expect(table.compile().sql).toBe(
      'create table "things" ("id" text primary key, "name" text not null, "note" text, "created_at" text not null)',
    );
  });

  it('creates indexes in the order given, unique where asked', async () => {
    const { db, statements } = recording(dialect);
    await createIndexes(db, 'things', { things_by_name: ['name', 'id'], things_by_note: { unique: ['note'] } });
    expect(statements).toEqual([
      'create index "things_by_name" on "things" ("name", "id")',
      'create unique index "things_by_note" on "things" ("note")',
    ]);
  });
});
