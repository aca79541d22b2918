import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SQLITE_CONSTRAINT,
  type SqliteFile,
  closeSqliteFile,
  inTransaction,
  isSqliteError,
  openSqliteFile,
  sqliteDialect,
} from '../src/index.ts';

const exec = promisify(execFile);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bosun-sqlite-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function withFile(name: string, work: (file: SqliteFile) => void): void {
  const file = openSqliteFile(join(dir, 'nested', `${name}.db`), ['journal_mode = WAL', 'foreign_keys = ON']);
  try {
    file.exec('CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)');
    work(file);
  } finally {
    file.close();
  }
}

const names = (file: SqliteFile) =>
  (file.prepare('SELECT name FROM items ORDER BY id').all() as unknown as { name: string }[]).map((row) => row.name);

describe("the SQLite driver (Node's own)", () => {
  it('opens a file in a directory it makes, with the pragmas asked for', () => {
    withFile('pragmas', (file) => {
      expect(file.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
      expect(file.prepare('PRAGMA foreign_keys').get()).toEqual({ foreign_keys: 1 });
    });
  });

  it('closes a file once: closing it again does nothing (a server closes its stores on each of two stops)', () => {
    const file = openSqliteFile(join(dir, 'closed-twice.db'), []);
    closeSqliteFile(file);
    expect(file.isOpen).toBe(false);
    expect(() => closeSqliteFile(file)).not.toThrow();
  });

  it('commits a transaction that returns, and rolls back one that throws, the error going on', () => {
    withFile('transactions', (file) => {
      expect(inTransaction(file, () => file.prepare('INSERT INTO items (name) VALUES (?)').run('kept').changes)).toBe(
        1,
      );
      expect(() =>
        inTransaction(file, () => {
          file.prepare('INSERT INTO items (name) VALUES (?)').run('undone');
          throw new Error('refused');
        }),
      ).toThrow('refused');
      expect(names(file)).toEqual(['kept']);
      expect(file.isTransaction).toBe(false);
    });
  });

  it('makes a nested transaction a savepoint: its throw undoes it alone, and the outer one still commits', () => {
    withFile('savepoints', (file) => {
      inTransaction(file, () => {
        file.prepare('INSERT INTO items (name) VALUES (?)').run('outer');
        expect(() =>
          inTransaction(file, () => {
            file.prepare('INSERT INTO items (name) VALUES (?)').run('inner');
            // A constraint's failure, as a failing write of a batch meets it.
            file.prepare('INSERT INTO items (name) VALUES (?)').run('outer');
          }),
        ).toThrow(/UNIQUE/);
        inTransaction(file, () => file.prepare('INSERT INTO items (name) VALUES (?)').run('second'));
      });
      expect(names(file)).toEqual(['outer', 'second']);
    });
  });

  it('tells constraint errors apart by their extended codes', () => {
    withFile('errors', (file) => {
      file.exec('CREATE TABLE notes (item INTEGER NOT NULL REFERENCES items (id))');
      file.prepare('INSERT INTO items (id, name) VALUES (1, ?)').run('one');
      const thrown = (work: () => void) => {
        try {
          work();
        } catch (error) {
          return error;
        }
        throw new Error('nothing was thrown');
      };
      const unique = thrown(() => file.prepare('INSERT INTO items (name) VALUES (?)').run('one'));
      const primary = thrown(() => file.prepare('INSERT INTO items (id, name) VALUES (1, ?)').run('two'));
      const foreign = thrown(() => file.prepare('INSERT INTO notes (item) VALUES (2)').run());
      expect(isSqliteError(unique, [SQLITE_CONSTRAINT.UNIQUE])).toBe(true);
      expect(isSqliteError(primary, [SQLITE_CONSTRAINT.PRIMARYKEY])).toBe(true);
      expect(isSqliteError(foreign, [SQLITE_CONSTRAINT.FOREIGNKEY])).toBe(true);
      expect(isSqliteError(unique, [SQLITE_CONSTRAINT.FOREIGNKEY])).toBe(false);
      expect(isSqliteError(new Error('UNIQUE constraint failed'), [SQLITE_CONSTRAINT.UNIQUE])).toBe(false);
    });
  });

  it("serves Kysely: reads, writes with their counts, RETURNING, and Kysely's own transactions", async () => {
    const { dialect } = sqliteDialect(join(dir, 'kysely', 'app.db'));
    const db = new Kysely<{ items: { id: number; name: string } }>({ dialect });
    try {
      await sql`CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL)`.execute(db);
      const inserted = await db.insertInto('items').values({ id: 1, name: 'one' }).returning(['id']).execute();
      expect(inserted).toEqual([{ id: 1 }]);
      const updated = await db.updateTable('items').set({ name: 'uno' }).where('id', '=', 1).executeTakeFirst();
      expect(updated.numUpdatedRows).toBe(1n);
      await expect(
        db.transaction().execute(async (trx) => {
          await trx.insertInto('items').values({ id: 2, name: 'two' }).execute();
          throw new Error('undo');
        }),
      ).rejects.toThrow('undo');
      expect(await db.selectFrom('items').select(['id', 'name']).execute()).toEqual([{ id: 1, name: 'uno' }]);
    } finally {
      await db.destroy();
    }
  });

  it('lets the garbage collector finalize statements while the process runs (no abort)', async () => {
    // Node 24.19 to 24.21 aborted the process when V8 finalized a native addon's statements in a collection
    // started by an allocation; the driver Bosun uses now must not bring that back on any Node it supports.
    const script = `
      const { DatabaseSync } = require('node:sqlite');
      const db = new DatabaseSync(':memory:');
      let kept = [];
      for (let i = 0; i < 300000; i++) {
        kept.push(db.prepare('select 1'));
        if (kept.length > 1000) kept = [];
      }
      setTimeout(() => console.log(db.prepare('select 2 as n').get().n), 50);
    `;
    const { stdout } = await exec(process.execPath, ['-e', script]);
    expect(stdout.trim()).toBe('2');
  }, 180_000);
});
