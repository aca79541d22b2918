import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createConversation } from './support/http.ts';
import { startTestServer } from './support/server.ts';

/** What creating a conversation writes, with the real agent runner (skills loaded, system prompt appended). */
describe('creating a conversation', () => {
  it('without skill repositories, commits its row and its system prompt, then syncs: three transactions', async () => {
    const server = await startTestServer({ runner: undefined });
    // An empty workspace of its own: no project skill adds a state event.
    const workspace = await mkdtemp(join(tmpdir(), 'bosun-create-writes-'));
    try {
      const { store } = server.server;
      const before = store.batchesCommitted;
      const { id } = await createConversation(server.url, { workspace: { working_dir: workspace } });
      expect(store.batchesCommitted - before).toBe(3);
      const events = store.searchEvents(id, { descending: false, limit: 10 });
      expect(events.map((event) => event.kind)).toEqual(['SystemPromptEvent']);
    } finally {
      await server.close();
      await rm(workspace, { recursive: true, force: true });
    }
  });
});
