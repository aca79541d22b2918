import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Kysely, sql } from 'kysely';
import { expect, it } from 'vitest';
import { connectDatabase } from '../../src/data/database.ts';
import {
  type AppDatabase,
  DatabaseMissingError,
  DatabaseOpenError,
  SQLITE_FILE,
  SchemaTooNewError,
  openDatabase,
} from '../../src/data/index.ts';
import { MIGRATIONS, migrate } from '../../src/data/migrations/index.ts';
import { describeEachDatabase } from '../support/databases.ts';

const NEWEST = MIGRATIONS.at(-1)?.name as string;
const PREVIOUS = MIGRATIONS.at(-2)?.name as string;
/** What only the newest step makes: the table of the GitHub App's installation events. */
const NEWEST_PROBE = sql`select delivery_id from git_app_installation_events`;

const ledger = async (database: AppDatabase) =>
  (await sql<{ name: string }>`select name from bosun_schema_migrations order by name`.execute(database.db)).rows.map(
    (row) => row.name,
  );

describeEachDatabase('migrations', (each) => {
  it('builds the whole schema on an empty database and answers ping', async () => {
    const database = await each.open();
    expect(await ledger(database)).toEqual(MIGRATIONS.map((step) => step.name));
    await database.ping();
    for (const table of [
      'users',
      'memberships',
      'api_keys',
      'custom_secrets',
      'provider_tokens',
      'app_conversations',
      'sandboxes',
      'app_conversation_start_tasks',
      'app_events',
      'plugin_trust',
      'marketplaces',
      'marketplace_versions',
      'llm_profiles',
      'oidc_identities',
      'git_app_installation_events',
    ]) {
      await expect(sql`select count(*) from ${sql.table(table)}`.execute(database.db)).resolves.toBeDefined();
    }
  });

  it('says what it applied in one log line, once committed, and nothing when there is nothing to apply', async () => {
    const target = await each.target();
    const old = await connectDatabase({ dataDir: target.dataDir, url: target.url, createDatabase: true });
    const lines: [object, string][] = [];
    const logger = { info: (fields: object, message: string) => lines.push([fields, message]), warn() {} };
    const options = { dialect: old.dialect, logger };
    await migrate(old.db as Kysely<unknown>, options);
    await migrate(old.db as Kysely<unknown>, options);
    await old.close();
    expect(lines).toEqual([
      [
        { migrations: MIGRATIONS.map((step) => step.name) },
        `applied ${MIGRATIONS.length} database migrations, now at ${NEWEST}`,
      ],
    ]);
  });

  it('migrates a database built by the previous release and keeps its data', async () => {
    const target = await each.target();
    const old = await connectDatabase({ dataDir: target.dataDir, url: target.url, createDatabase: true });
    expect(await migrate(old.db as Kysely<unknown>, { dialect: old.dialect, upTo: PREVIOUS })).toEqual({
      applied: MIGRATIONS.slice(0, -1).map((step) => step.name),
      version: PREVIOUS,
    });
    await expect(NEWEST_PROBE.execute(old.db)).rejects.toThrow();
    await old.db
      .insertInto('users')
      .values({ id: 'u1', email: 'kept@example.com', name: 'Kept', created_at: '2026-01-01T00:00:00.000Z' })
      .execute();
    await old.db
      .insertInto('app_conversations')
      .values({
        id: 'c0',
        user_id: 'u1',
        org_id: null,
        sandbox_id: null,
        title: 'old',
        created_at: 'x',
        updated_at: 'x',
      })
      .execute();
    await old.close();

    const upgraded = await each.open({ target });
    expect(await ledger(upgraded)).toEqual(MIGRATIONS.map((step) => step.name));
    expect(await upgraded.db.selectFrom('users').select(['id', 'email']).execute()).toEqual([
      { id: 'u1', email: 'kept@example.com' },
    ]);
    await upgraded.db
      .insertInto('app_conversations')
      .values({ id: 'c1', user_id: 'u1', org_id: null, sandbox_id: null, title: 't', created_at: 'x', updated_at: 'x' })
      .execute();
    const conversations = upgraded.db.selectFrom('app_conversations').select(['id', 'is_public']).orderBy('id');
    // A conversation from before sharing existed stays private.
    expect(await conversations.execute()).toEqual([
      { id: 'c0', is_public: 0 },
      { id: 'c1', is_public: 0 },
    ]);
  });

  it('applies only the missing steps, step by step, with the runner', async () => {
    const target = await each.target();
    const database = await connectDatabase({ dataDir: target.dataDir, url: target.url, createDatabase: true });
    const options = { dialect: database.dialect };
    try {
      await migrate(database.db as Kysely<unknown>, { ...options, upTo: PREVIOUS });
      expect(await migrate(database.db as Kysely<unknown>, { ...options, upTo: PREVIOUS })).toEqual({
        applied: [],
        version: PREVIOUS,
      });
      expect(await migrate(database.db as Kysely<unknown>, options)).toEqual({ applied: [NEWEST], version: NEWEST });
      expect(await migrate(database.db as Kysely<unknown>, options)).toEqual({ applied: [], version: NEWEST });
    } finally {
      await database.close();
    }
  });

  it('refuses a schema newer than the code, saying both versions and what to do, and changes nothing', async () => {
    const target = await each.target();
    const database = await each.open({ target });
    await sql`insert into bosun_schema_migrations (name, applied_at) values ('0099_from_the_future', 'x')`.execute(
      database.db,
    );
    await database.close();
    const refused = openDatabase({ dataDir: target.dataDir, url: target.url });
    await expect(refused).rejects.toThrow(SchemaTooNewError);
    await expect(refused).rejects.toThrow(
      new RegExp(
        `version 0099_from_the_future, newer than the newest this Bosun knows \\(${NEWEST}\\).*Run that newer`,
      ),
    );
    const raw = await connectDatabase({ dataDir: target.dataDir, url: target.url });
    expect(await ledger(raw)).toEqual([...MIGRATIONS.map((step) => step.name), '0099_from_the_future']);
    await raw.close();
  });

  it('two servers opening a new database at once apply each step once', async () => {
    const target = await each.target();
    const first = await each.open({ target });
    const [a, b] = await Promise.all([each.open({ target }), each.open({ target })]);
    for (const database of [first, a, b]) expect(await ledger(database)).toEqual(MIGRATIONS.map((step) => step.name));
  });
});

describeEachDatabase('opening', (each) => {
  it('creates the database only when allowed', async () => {
    const target = await each.target();
    if (each.dialect === 'sqlite') {
      const database = await each.open({ target, createDatabase: false });
      await database.ping();
      return;
    }
    const missing = openDatabase({ dataDir: target.dataDir, url: target.url, createDatabase: false });
    await expect(missing).rejects.toThrow(DatabaseMissingError);
    await expect(missing).rejects.toThrow(`the PostgreSQL database "${target.databaseName}" does not exist`);
    const created = await each.open({ target, createDatabase: true });
    await created.ping();
    const again = await each.open({ target, createDatabase: false });
    await again.ping();
  });

  it('refuses a URL that is not PostgreSQL, and names an unreachable server without its password', async () => {
    const { dataDir } = await each.target();
    await expect(openDatabase({ dataDir, url: 'mysql://localhost/x' })).rejects.toThrow(
      'the database URL must start with postgres:// or postgresql://',
    );
    const unreachable = openDatabase({ dataDir, url: 'postgresql://u:hunter2@127.0.0.1:1/db' });
    await expect(unreachable).rejects.toThrow(DatabaseOpenError);
    await expect(unreachable).rejects.toThrow(/cannot connect to the PostgreSQL database "db" on 127\.0\.0\.1:1/);
    await expect(unreachable).rejects.not.toThrow(/hunter2/);
  });

  if (each.dialect === 'sqlite')
    it('names a SQLite file that is not a database', async () => {
      const { dataDir } = await each.target();
      await writeFile(join(dataDir, SQLITE_FILE), 'not a database, just text that is long enough to have a header');
      const opening = openDatabase({ dataDir });
      await expect(opening).rejects.toThrow(DatabaseOpenError);
      await expect(opening).rejects.toThrow(`cannot open the SQLite database ${join(dataDir, SQLITE_FILE)}`);
    });

  it('close is idempotent and ping fails after it', async () => {
    const database = await each.open();
    await database.close();
    await database.close();
    await expect(database.ping()).rejects.toThrow();
  });
});
