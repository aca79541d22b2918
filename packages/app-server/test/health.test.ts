import { type Server, type Socket, createServer } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dependency } from '../src/index.ts';
import { type ListeningApp, call, listenApp } from './support/app.ts';

/**
 * `/alive` and `/health` answer while the process runs; `/ready` only while every dependency the server was
 * given answers: here the real PostgreSQL, a closed port, and a server that accepts connections but never speaks.
 */

const POSTGRES = 'postgres://postgres@127.0.0.1:5432/postgres';

/** A dependency that answers when PostgreSQL at `url` runs `SELECT 1`. */
function postgres(url: string): Dependency {
  return {
    async ping() {
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
      client.on('error', () => {});
      try {
        await client.connect();
        await client.query('SELECT 1');
      } finally {
        await client.end().catch(() => {});
      }
    },
  };
}

/** A port nothing listens on: one that was just free. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let silent: Server;
const held = new Set<Socket>();
const apps: ListeningApp[] = [];
beforeAll(async () => {
  silent = createServer((socket) => held.add(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
  for (const socket of held) socket.destroy();
  await new Promise((resolve) => silent.close(resolve));
});

async function start(dependencies: Record<string, Dependency>, readyTimeoutMs?: number) {
  const app = await listenApp({ dependencies, ...(readyTimeoutMs ? { readyTimeoutMs } : {}) });
  apps.push(app);
  return app;
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

  it('/ready is 200 when PostgreSQL answers', async () => {
    const app = await start({ database: postgres(POSTGRES) });
    expect(await call(app.url, '/ready')).toMatchObject({
      status: 200,
      body: { status: 'ready', checks: { database: 'ok' } },
    });
  });

  it('/ready is 503 naming the dependency when the database is on a closed port, and /alive stays 200', async () => {
    const port = await closedPort();
    const app = await start({ database: postgres(`postgres://postgres:pw-never-shown@127.0.0.1:${port}/x`) });
    const ready = await call(app.url, '/ready');
    expect(ready).toMatchObject({
      status: 503,
      body: { status: 'unavailable', message: 'Not answering: database', checks: { database: 'failing' } },
    });
    expect(ready.text).not.toContain('pw-never-shown');
    expect(ready.text).not.toContain(String(port));
    expect((await call(app.url, '/alive')).status).toBe(200);
  });

  it('/ready is 503 when a dependency does not answer within its bound', async () => {
    const { port } = silent.address() as { port: number };
    const app = await start({ database: postgres(POSTGRES), cache: postgres(`postgres://x@127.0.0.1:${port}/x`) }, 300);
    expect(await call(app.url, '/ready')).toMatchObject({
      status: 503,
      body: { checks: { database: 'ok', cache: 'failing' } },
    });
  });
});
