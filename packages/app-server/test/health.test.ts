import { mkdtemp, rm } from 'node:fs/promises';
import { type Server, type Socket, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cache, openCache } from '../src/cache/index.ts';
import { type AppDatabase, openDatabase } from '../src/data/index.ts';
import type { AppDependencies } from '../src/index.ts';
import { type ListeningApp, call, listenApp } from './support/app.ts';

/**
 * `/alive` and `/health` answer while the process runs; `/ready` only while every dependency the server was
 * given answers within its bound (start-up with PostgreSQL and Redis: server-start.test.ts).
 */

let root: string;
let silent: Server;
const held = new Set<Socket>();
const apps: ListeningApp[] = [];
const opened: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'bosun-health-'));
  // Accepts connections and never says a word: a Redis that hangs.
  silent = createServer((socket) => held.add(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
  for (const dependency of opened) await dependency.close();
  for (const socket of held) socket.destroy();
  await new Promise((resolve) => silent.close(resolve));
  await rm(root, { recursive: true, force: true });
});

async function start(dependencies: AppDependencies, readyTimeoutMs?: number) {
  const app = await listenApp({ dependencies, ...(readyTimeoutMs ? { readyTimeoutMs } : {}) });
  apps.push(app);
  return app;
}

async function sqlite(): Promise<AppDatabase> {
  const database = await openDatabase({ dataDir: await mkdtemp(join(root, 'db-')) });
  opened.push(database);
  return database;
}

async function cacheAt(redisUrl?: string): Promise<Cache> {
  const cache = await openCache(redisUrl ? { redisUrl } : {});
  opened.push(cache);
  return cache;
}

describe('health', () => {
  it('/alive and /health answer without dependencies; /ready is ready with none', async () => {
    const app = await start({});
    expect(await call(app.url, '/alive')).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(await call(app.url, '/health')).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(await call(app.url, '/ready')).toMatchObject({ status: 200, body: { status: 'ready', checks: {} } });
    expect(await call(app.url, '/server_info')).toMatchObject({
      status: 200,
      body: { title: 'Bosun App Server', version: expect.any(String), docs: '/docs' },
    });
  });

  it('/ready checks each dependency given', async () => {
    const app = await start({ database: await sqlite(), cache: await cacheAt() });
    expect(await call(app.url, '/ready')).toMatchObject({
      status: 200,
      body: { status: 'ready', checks: { database: 'ok', cache: 'ok' } },
    });
  });

  it('/ready is 503 within its bound when a dependency hangs, and /alive stays 200', async () => {
    const { port } = silent.address() as { port: number };
    const app = await start({ database: await sqlite(), cache: await cacheAt(`redis://127.0.0.1:${port}`) }, 300);
    const started = Date.now();
    expect(await call(app.url, '/ready')).toMatchObject({
      status: 503,
      body: { status: 'unavailable', message: 'Not answering: cache', checks: { database: 'ok', cache: 'failing' } },
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((await call(app.url, '/alive')).status).toBe(200);
  });
});
