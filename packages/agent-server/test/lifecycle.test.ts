import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type TestServer, startRequest, startTestServer } from './support/server.ts';

const servers: TestServer[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function start(options: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  const server = await startTestServer(options);
  servers.push(server);
  return server;
}

async function create(url: string, id: string): Promise<void> {
  const response = await fetch(`${url}/api/conversations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(startRequest({ conversation_id: id })),
  });
  expect(response.status).toBe(201);
}

describe('conversation lifecycle', () => {
  it('moves a conversation found running after a restart to error, with a ConversationErrorEvent', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'bosun-lifecycle-'));
    dirs.push(dataDir);
    const id = '0193f6c2-7a1b-7c3d-9e4f-00000000aa01';
    const first = await startTestServer({ dataDir });
    await create(first.url, id);
    await first.server.service.get(id)?.setStatus('running');
    // A crash: the store is closed without the service's shutdown (which would mark the run stopped itself).
    await first.server.app.close();
    first.server.store.close();

    const second = await start({ dataDir });
    const info = (await (await fetch(`${second.url}/api/conversations/${id}`)).json()) as { execution_status: string };
    expect(info.execution_status).toBe('error');
    const page = (await (
      await fetch(`${second.url}/api/conversations/${id}/events/search?kind=ConversationErrorEvent`)
    ).json()) as { items: unknown[] };
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({ code: 'ServerRestarted', source: 'environment' });
  });

  it('loads conversations lazily and evicts idle ones without losing anything', async () => {
    const server = await start({ idleTtlMs: 60_000 });
    const ids = ['0193f6c2-7a1b-7c3d-9e4f-00000000bb01', '0193f6c2-7a1b-7c3d-9e4f-00000000bb02'];
    for (const id of ids) await create(server.url, id);
    const { service } = server.server;
    expect(service.loadedCount).toBe(2);
    expect(service.evictIdle(Date.now())).toBe(0);
    expect(service.evictIdle(Date.now() + 61_000)).toBe(2);
    expect(service.loadedCount).toBe(0);
    const info = (await (await fetch(`${server.url}/api/conversations/${ids[0]}`)).json()) as { id: string };
    expect(info.id).toBe(ids[0]);
    expect(service.loadedCount).toBe(1);
  });

  it('never evicts a conversation someone follows', async () => {
    const server = await start({ idleTtlMs: 1 });
    const id = '0193f6c2-7a1b-7c3d-9e4f-00000000cc01';
    await create(server.url, id);
    const conversation = server.server.service.get(id);
    const unsubscribe = conversation?.subscribe(() => undefined);
    expect(server.server.service.evictIdle(Date.now() + 10_000)).toBe(0);
    unsubscribe?.();
    expect(server.server.service.evictIdle(Date.now() + 10_000)).toBe(1);
  });
});
