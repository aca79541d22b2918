import { connectDatabase } from '@bosun/database';
import { DatabaseSandboxStore, type LocalSpec, type SandboxRecord } from '@bosun/runtime';
import { newSecretsKey } from '@bosun/sealing';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StoreTarget, storeTarget } from './support/databases.ts';

const spec: LocalSpec = {
  sessionId: 'conversation-1',
  command: ['node', 'bosun.js'],
  workingDir: '/workspace',
  environment: { LLM_API_KEY: 'sk-stored-sealed-never-plain' },
  resourceFactor: 2,
  uid: 10001,
  gid: 10001,
  network: { mode: 'allow', hosts: [{ host: 'api.example.com', port: 443 }] },
};

const record = (id: string, createdAt: string): SandboxRecord<LocalSpec> => ({
  id,
  spec: { ...spec, sessionId: `session-${id}` },
  createdAt,
  changedAt: createdAt,
  status: 'RUNNING',
  statusDetail: null,
  pool: null,
});

/** The runtime's records in its own database, on both kinds the app uses. */
describe.each(['sqlite', 'postgres'] as const)('sandbox records in a database (%s)', (dialect) => {
  let target: StoreTarget;
  const key = newSecretsKey();
  const open = (withKey = key) =>
    DatabaseSandboxStore.open<LocalSpec>({
      sqlitePath: target.sqlitePath,
      ...(target.url ? { url: target.url } : {}),
      createDatabase: true,
      key: withKey,
    });

  beforeAll(async () => {
    target = await storeTarget(dialect);
  });
  afterAll(() => target.cleanUp());

  it('saves, replaces, lists oldest first and forgets records, across a reopen', async () => {
    const store = await open();
    await store.save(record('b', '2026-01-02T00:00:00.000Z'));
    await store.save(record('a', '2026-01-01T00:00:00.000Z'));
    await store.save({ ...record('b', '2026-01-02T00:00:00.000Z'), status: 'PAUSED', statusDetail: 'why', pool: null });
    await store.close();

    const reopened = await open();
    const loaded = await reopened.load();
    expect(loaded.map(({ id }) => id)).toEqual(['a', 'b']);
    expect(loaded[1]).toEqual({ ...record('b', '2026-01-02T00:00:00.000Z'), status: 'PAUSED', statusDetail: 'why' });
    await reopened.remove('a');
    await reopened.remove('never-there');
    expect((await reopened.load()).map(({ id }) => id)).toEqual(['b']);
    await reopened.close();
  });

  it('keeps the spec sealed (its environment may hold credentials), openable only with the key', async () => {
    const store = await open();
    await store.save(record('sealed', '2026-01-03T00:00:00.000Z'));
    await store.close();
    const raw = await connectDatabase({ sqlitePath: target.sqlitePath, ...(target.url ? { url: target.url } : {}) });
    const rows = await sql<{ row: string }>`select * from runtime_sandboxes`.execute(raw.db);
    await raw.close();
    expect(JSON.stringify(rows.rows)).not.toContain('sk-stored-sealed-never-plain');
    expect(JSON.stringify(rows.rows)).toContain('session-sealed');

    const wrongKey = await open(newSecretsKey());
    await expect(wrongKey.load()).rejects.toThrow();
    await wrongKey.close();
  });

  it("keeps its own schema ledger, so it can share a database with the app's", async () => {
    const raw = await connectDatabase({ sqlitePath: target.sqlitePath, ...(target.url ? { url: target.url } : {}) });
    const ledger = await sql<{ name: string }>`select name from bosun_runtime_schema_migrations`.execute(raw.db);
    await raw.close();
    expect(ledger.rows.map(({ name }) => name)).toEqual(['0001-runtime-sandboxes']);
  });
});
