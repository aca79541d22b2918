import { type Kysely, sql } from 'kysely';
import { expect, it } from 'vitest';
import { connectDatabase } from '../../src/data/database.ts';
import { SchemaBehindError, SchemaTooNewError, migrateAppSchema, openDatabase } from '../../src/data/index.ts';
import { MIGRATIONS, migrate } from '../../src/data/migrations/index.ts';
import { describeEachDatabase } from '../support/databases.ts';

/** Migrating as a step of its own, and a server that leaves it to that step (migrate: false). */

const ALL = MIGRATIONS.map((step) => step.name);
const NEWEST = ALL.at(-1) as string;
const PREVIOUS = ALL.at(-2) as string;

describeEachDatabase('the schema step', (each) => {
  it('checks without changing anything, then applies what is pending once', async () => {
    const target = await each.target();
    const options = { dataDir: target.dataDir, createDatabase: true, ...(target.url ? { url: target.url } : {}) };
    const dialect = each.dialect;
    expect(await migrateAppSchema({ ...options, check: true })).toEqual({
      dialect,
      applied: [],
      pending: ALL,
      newest: NEWEST,
    });
    expect(await migrateAppSchema({ ...options, check: true })).toMatchObject({ pending: ALL });
    expect(await migrateAppSchema(options)).toEqual({ dialect, applied: ALL, pending: [], newest: NEWEST });
    expect(await migrateAppSchema(options)).toEqual({ dialect, applied: [], pending: [], newest: NEWEST });
    expect(await migrateAppSchema({ ...options, check: true })).toMatchObject({ pending: [] });
  });

  it('a server that does not migrate refuses a schema behind by a step, then opens it once migrated', async () => {
    const target = await each.target();
    const options = { dataDir: target.dataDir, createDatabase: true, ...(target.url ? { url: target.url } : {}) };
    const old = await connectDatabase(options);
    await migrate(old.db as Kysely<unknown>, { dialect: old.dialect, upTo: PREVIOUS });
    await old.close();

    const refused = openDatabase({ ...options, migrate: false });
    await expect(refused).rejects.toThrow(SchemaBehindError);
    await expect(refused).rejects.toThrow(`1 migration pending (${NEWEST}). Run \`bosun migrate\``);
    expect(await migrateAppSchema({ ...options, check: true })).toMatchObject({ pending: [NEWEST] });

    expect(await migrateAppSchema(options)).toMatchObject({ applied: [NEWEST] });
    const opened = await openDatabase({ ...options, migrate: false });
    const ledger = await sql<{ name: string }>`select name from bosun_schema_migrations`.execute(opened.db);
    expect(ledger.rows).toHaveLength(ALL.length);
    await opened.close();
  });

  it('--check refuses a schema newer than this code as migrating does', async () => {
    const target = await each.target();
    const options = { dataDir: target.dataDir, createDatabase: true, ...(target.url ? { url: target.url } : {}) };
    await migrateAppSchema(options);
    const raw = await connectDatabase(options);
    await sql`insert into bosun_schema_migrations (name, applied_at) values ('0099_from_the_future', 'x')`.execute(
      raw.db,
    );
    await raw.close();
    await expect(migrateAppSchema({ ...options, check: true })).rejects.toThrow(SchemaTooNewError);
    await expect(openDatabase({ ...options, migrate: false })).rejects.toThrow(SchemaTooNewError);
  });
});
