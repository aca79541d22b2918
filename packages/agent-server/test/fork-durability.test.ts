import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Page, call } from './support/http.ts';
import { type ServerProcess, spawnServer } from './support/server-process.ts';
import { startRequest } from './support/server.ts';

let server: ServerProcess | undefined;
let dataDir: string | undefined;
afterAll(async () => {
  await server?.kill();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('a fork', () => {
  it('is in the log with all its events once acknowledged, even if the server is killed with SIGKILL right after', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'bosun-fork-durability-'));
    server = await spawnServer(dataDir);
    const created = await call<{ id: string }>(server.url, '/api/conversations', {
      method: 'POST',
      json: startRequest(),
    });
    expect(created.status).toBe(201);
    for (const text of ['one', 'two', 'three']) {
      const sent = await call(server.url, `/api/conversations/${created.body.id}/events`, {
        method: 'POST',
        json: { content: [{ type: 'text', text }] },
      });
      expect(sent.status).toBe(200);
    }
    const fork = await call<{ id: string; event_count: number }>(
      server.url,
      `/api/conversations/${created.body.id}/fork`,
      { method: 'POST' },
    );
    expect(fork.status, fork.text).toBe(201);
    await server.kill();

    server = await spawnServer(dataDir);
    const events = await call<Page<{ id: string }>>(server.url, `/api/conversations/${fork.body.id}/events/search`);
    const source = await call<Page<{ id: string }>>(server.url, `/api/conversations/${created.body.id}/events/search`);
    expect(events.status).toBe(200);
    expect(events.body.items).toHaveLength(fork.body.event_count);
    expect(events.body.items).toEqual(source.body.items);
  });
});
