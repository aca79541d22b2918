import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './support/http.ts';
import { type TestServer, startRequest, startTestServer } from './support/server.ts';

/** What creating a conversation writes, with the real agent runner (skills loaded, system prompt appended). */

let server: TestServer;
/** An empty workspace of its own: no project skill adds a state event. */
let workspace: string;
beforeAll(async () => {
  server = await startTestServer({ runner: undefined });
  workspace = await mkdtemp(join(tmpdir(), 'bosun-create-writes-'));
});
afterAll(async () => {
  await server.close();
  await rm(workspace, { recursive: true, force: true });
});

describe('creating a conversation', () => {
  it('without skill repositories, commits its row and its system prompt, then syncs: three transactions', async () => {
    const { store } = server.server;
    const before = store.batchesCommitted;
    const reply = await call<{ id: string }>(server.url, '/api/conversations', {
      method: 'POST',
      json: startRequest({ workspace: { working_dir: workspace } }),
    });
    expect(reply.status).toBe(201);
    expect(store.batchesCommitted - before).toBe(3);
    const events = store.searchEvents(reply.body.id, { descending: false, limit: 10 });
    expect(events.map((event) => event.kind)).toEqual(['SystemPromptEvent']);
  });
});
