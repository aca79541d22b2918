import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../app-server/src/data/migrations/index.ts';
import { POSTGRES_SERVER } from '../../app-server/test/support/databases.ts';
import { runCli } from './io.ts';
import { scratchDir } from './scratch.ts';
import { startServer } from './server-process.ts';

/** `bosun migrate`: the schema step a chart runs before its replicas, each process a real one, on both databases. */

const CLI = fileURLToPath(new URL('../bin/bosun.js', import.meta.url));
const ALL = MIGRATIONS.map((step) => step.name);
/** Replicas of a chart's Job or init containers starting together. */
const AT_ONCE = 4;

const scratch = scratchDir('bosun-migrate-');
const databases: string[] = [];

afterAll(async () => {
  const client = new pg.Client({ connectionString: `${POSTGRES_SERVER}/postgres` });
  await client.connect();
  for (const name of databases) await client.query(`drop database if exists ${name} with (force)`);
  await client.end();
});

/** Runs `bosun` as a process of its own with only the `BOSUN_*` variables of `env`: its exit code and output. */
async function bosun(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  // `migrate` never says it listens: the start resolves when the process has exited.
  return (await startServer(CLI, args, env, /listening/)) as { code: number | null; output: string };
}

/** The migration names an output lists, one per indented line. */
const listed = (output: string) => [...output.matchAll(/^ {2}(\S+)$/gm)].map((match) => match[1]);

/** Runs `bosun` in this process with `env` set for the run; its output as one text. */
async function inProcess(args: string[], env: Record<string, string>): Promise<{ code: number; output: string }> {
  for (const [name, value] of Object.entries(env)) process.env[name] = value;
  const { code, stdout, stderr } = await runCli(args).finally(() => {
    for (const name of Object.keys(env)) delete process.env[name];
  });
  return { code, output: stdout + stderr };
}

/** A new place for the app's database: a data directory, and on PostgreSQL a database of its own (made empty). */
async function newDatabase(dialect: 'sqlite' | 'postgres', create: boolean): Promise<Record<string, string>> {
  const name = `bosun_test_${randomBytes(6).toString('hex')}`;
  const env = { BOSUN_DATA_DIR: join(scratch.dir, name) };
  if (dialect === 'sqlite') return env;
  databases.push(name);
  if (create) {
    const client = new pg.Client({ connectionString: `${POSTGRES_SERVER}/postgres` });
    await client.connect();
    await client.query(`create database ${name}`);
    await client.end();
  }
  return { ...env, BOSUN_DATABASE_URL: `${POSTGRES_SERVER}/${name}` };
}

describe.each(['sqlite', 'postgres'] as const)('bosun migrate (%s)', (dialect) => {
  it('--check lists every pending migration, applies none, and exits 1; after migrating it exits 0', async () => {
    const env = await newDatabase(dialect, true);
    for (let round = 0; round < 2; round++) {
      const checked = await inProcess(['migrate', '--check'], env);
      expect(checked.code, checked.output).toBe(1);
      expect(checked.output).toMatch(
        new RegExp(`^${ALL.length} migrations pending in .* \\(run \`bosun migrate\`\\):`),
      );
      expect(listed(checked.output)).toEqual(ALL);
    }
    const migrated = await inProcess(['migrate'], env);
    expect(migrated.code, migrated.output).toBe(0);
    expect(migrated.output).toMatch(new RegExp(`^Applied ${ALL.length} migrations to `));
    expect(listed(migrated.output)).toEqual(ALL);
    const again = await inProcess(['migrate'], env);
    expect(again).toEqual({ code: 0, output: expect.stringMatching(/^The database schema is up to date \(/) });
    expect(listed(again.output)).toEqual([]);
    expect((await inProcess(['migrate', '--check'], env)).code).toBe(0);
  });

  it(`${AT_ONCE} at once on one new database all succeed, each migration applied by exactly one`, async () => {
    const env = await newDatabase(dialect, false);
    const runs = await Promise.all(Array.from({ length: AT_ONCE }, () => bosun(['migrate'], env)));
    for (const run of runs) expect(run.code, run.output).toBe(0);
    expect(runs.flatMap((run) => listed(run.output)).sort()).toEqual([...ALL].sort());
    expect((await inProcess(['migrate', '--check'], env)).code).toBe(0);
  }, 120_000);

  it('`bosun serve --no-migrate-on-start` refuses a schema that is behind, naming the pending step', async () => {
    const env = await newDatabase(dialect, true);
    const refused = await inProcess(['serve', '--port', '0', '--no-migrate-on-start'], env);
    expect(refused.code).toBe(1);
    expect(refused.output).toContain(`the database schema is behind this Bosun: ${ALL.length} migrations pending`);
    expect(refused.output).toContain(ALL.at(-1));
    expect(refused.output).toContain('Run `bosun migrate` with the same database settings first');
    expect((await inProcess(['migrate', '--check'], env)).code).toBe(1);
  });
});

it('bosun migrate names a database it cannot reach without its password (exit 1)', async () => {
  const failed = await inProcess(['migrate', '--check'], {
    BOSUN_DATABASE_URL: 'postgres://bosun:hunter2@127.0.0.1:1/nowhere',
  });
  expect(failed.code).toBe(1);
  expect(failed.output).toMatch(/^bosun migrate: .*127\.0\.0\.1:1/);
  expect(failed.output).not.toContain('hunter2');
});
