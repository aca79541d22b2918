import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { zipEntries } from '../../../test/support/unzip.ts';
import { createConversation } from './support/http.ts';
import { testServerPerFile } from './support/shared-server.ts';

const server = testServerPerFile();

/** `fetch` while PATH holds only an empty directory: no `zip` (nor any other program) to run. */
async function fetchWithoutPrograms(url: string): Promise<Response> {
  const empty = await mkdtemp(join(tmpdir(), 'bosun-no-programs-'));
  const path = process.env.PATH;
  process.env.PATH = empty;
  try {
    const reply = await fetch(url);
    return new Response(await reply.arrayBuffer(), { status: reply.status, headers: reply.headers });
  } finally {
    process.env.PATH = path;
    await rm(empty, { recursive: true, force: true });
  }
}

describe('trajectory download', () => {
  it('zips base_state.json and every event in log order, over pages, with no zip program', async () => {
    const { id } = await createConversation(server.url);
    const conversation = server.server.service.get(id);
    await conversation?.append(
      Array.from({ length: 1234 }, (_, index) => ({
        kind: 'MessageEvent',
        source: 'user',
        llm_message: { role: 'user', content: [{ type: 'text', text: `message ${index}` }], thinking_blocks: [] },
        activated_skills: [],
        extended_content: [],
      })) as never,
    );
    const rows = server.server.store.searchEvents(id, { descending: false, limit: Number.MAX_SAFE_INTEGER });
    expect(rows).toHaveLength(1234);

    const reply = await fetchWithoutPrograms(`${server.url}/api/file/download-trajectory/${id}`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('application/zip');
    expect(reply.headers.get('content-disposition')).toBe(
      `attachment; filename="trajectory-${id}.zip"; filename*=UTF-8''trajectory-${id}.zip`,
    );
    expect(reply.headers.get('x-content-type-options')).toBe('nosniff');
    const entries = await zipEntries(new Uint8Array(await reply.arrayBuffer()));
    expect(entries.map((entry) => entry.path)).toEqual([
      'base_state.json',
      'events/',
      ...rows.map((row, index) => `events/event-${String(index).padStart(5, '0')}-${row.id}.json`),
    ]);
    expect(entries.slice(2).map((entry) => entry.content)).toEqual(rows.map((row) => row.json));
    const state = JSON.parse(entries[0]?.content ?? '');
    expect(state).toMatchObject({ id, execution_status: expect.any(String) });
    // The start request's LLM key stays out, as in GET /api/conversations/{id}.
    expect(entries[0]?.content).not.toContain('sk-test-secret');
  });
});
