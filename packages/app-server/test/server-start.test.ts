import { randomUUID } from 'node:crypto';
import { chmod, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '../../sources/test/support/closed-port.ts';
import { type RunningAppServer, StartError, appServerConfig, startAppServer } from '../src/index.ts';
import { call } from './support/app.ts';
import { POSTGRES_SERVER } from './support/databases.ts';
import { startS3Server } from './support/s3-server.ts';
import { startTcpProxy } from './support/tcp-proxy.ts';

/**
 * The start-up sequence: open what the configuration names (SQLite in the data directory by default; the real
 * PostgreSQL and Redis here), build, listen; `/ready` follows the dependencies; close releases everything.
 */

const REDIS_URL = process.env.BOSUN_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const databaseName = `bosun_start_${randomUUID().replaceAll('-', '')}`;
let root: string;
const running: RunningAppServer[] = [];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'bosun-start-'));
  // The sandboxes' user must reach the data directories inside (<data_dir>/sandboxes).
  await chmod(root, 0o711);
});
afterAll(async () => {
  await Promise.all(running.map((server) => server.close()));
  const admin = new pg.Client({ connectionString: `${POSTGRES_SERVER}/postgres` });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`);
  await admin.end();
  await rm(root, { recursive: true, force: true });
});

async function start(values: Parameters<typeof appServerConfig>[0]): Promise<RunningAppServer> {
  const server = await startAppServer(appServerConfig({ port: 0, log_level: 'silent', ...values }));
  running.push(server);
  return server;
}

describe('startAppServer', () => {
  it('runs on the embedded defaults: SQLite and the generated key in the data directory, an in-process cache', async () => {
    const dataDir = join(root, 'embedded');
    const server = await start({ data_dir: dataDir });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await call(server.url, '/ready')).toMatchObject({
      status: 200,
      body: { status: 'ready', checks: { database: 'ok', cache: 'ok', objects: 'ok' } },
    });
    expect(server.description).toEqual([
      `Database: SQLite ${join(dataDir, 'app.db')}`,
      'Cache: in-process',
      `Objects: on disk ${join(dataDir, 'objects')}`,
      `Sandboxes: bubblewrap, in ${join(dataDir, 'sandboxes')}`,
    ]);
    expect(await readdir(dataDir)).toEqual(expect.arrayContaining(['app.db', 'secrets.key']));
    await server.close();
    await expect(fetch(`${server.url}/alive`)).rejects.toThrow();
  });

  it('on PostgreSQL (created at start) is ready while it answers, and 503 once its address is closed', async () => {
    const { hostname, port } = new URL(POSTGRES_SERVER);
    const proxy = await startTcpProxy({ host: hostname, port: Number(port || 5432) });
    const server = await start({
      data_dir: join(root, 'postgres'),
      database_url: `postgres://postgres:pw-never-shown@127.0.0.1:${proxy.port}/${databaseName}`,
      redis_url: REDIS_URL,
    });
    expect(server.description[0]).toBe(
      `Database: PostgreSQL postgres://postgres:***@127.0.0.1:${proxy.port}/${databaseName}`,
    );
    expect(await call(server.url, '/ready')).toMatchObject({
      status: 200,
      body: { status: 'ready', checks: { database: 'ok', cache: 'ok' } },
    });
    await proxy.cut();
    const ready = await call(server.url, '/ready');
    expect(ready).toMatchObject({
      status: 503,
      body: { status: 'unavailable', checks: { database: 'failing', cache: 'ok' } },
    });
    expect(ready.text).not.toContain('pw-never-shown');
    expect((await call(server.url, '/alive')).status).toBe(200);
  });

  it('keeps objects in an S3 bucket, ready while the bucket answers', async () => {
    const s3 = await startS3Server();
    try {
      const config = {
        s3_endpoint: s3.endpoint,
        s3_access_key_id: s3.accessKeyId,
        s3_secret_access_key: s3.secretAccessKey,
      };
      const server = await start({ data_dir: join(root, 's3'), s3_bucket: s3.bucket, ...config });
      expect(server.description[2]).toBe(`Objects: S3 bucket ${s3.bucket} at ${s3.endpoint}`);
      expect(await call(server.url, '/ready')).toMatchObject({ status: 200, body: { checks: { objects: 'ok' } } });
      const missing = await start({ data_dir: join(root, 's3-missing'), s3_bucket: 'no-such-bucket', ...config });
      const ready = await call(missing.url, '/ready');
      expect(ready).toMatchObject({ status: 503, body: { checks: { objects: 'failing' } } });
      expect(ready.text).not.toContain(s3.secretAccessKey);
    } finally {
      await s3.stop();
    }
  });

  it('starts with Redis down, and is not ready while it does not answer', async () => {
    const server = await start({
      data_dir: join(root, 'redis-down'),
      redis_url: `redis://127.0.0.1:${await closedPort()}`,
    });
    expect(await call(server.url, '/ready')).toMatchObject({
      status: 503,
      body: { message: 'Not answering: cache', checks: { database: 'ok', cache: 'failing' } },
    });
  });

  it('refuses to start on a PostgreSQL that cannot be reached, saying where, never the password', async () => {
    const port = await closedPort();
    const failure = await start({
      data_dir: join(root, 'unreachable'),
      database_url: `postgres://postgres:pw-never-shown@127.0.0.1:${port}/bosun`,
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StartError);
    expect((failure as Error).message).toContain(`127.0.0.1:${port}`);
    expect((failure as Error).message).not.toContain('pw-never-shown');
  });

  it('says so when the data directory cannot be made', async () => {
    const file = join(root, 'a-file');
    await writeFile(file, '');
    const failure = await start({ data_dir: join(file, 'data') }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StartError);
    expect((failure as Error).message).toBe(`cannot create the data directory ${join(file, 'data')}: ENOTDIR`);
  });

  it('refuses a database that does not exist when creating databases is not allowed', async () => {
    const failure = await start({
      data_dir: join(root, 'no-create'),
      database_url: `${POSTGRES_SERVER}/bosun_missing_${randomUUID().replaceAll('-', '')}`,
      create_databases: false,
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StartError);
    expect((failure as Error).message).toMatch(/does not exist/);
  });
});
