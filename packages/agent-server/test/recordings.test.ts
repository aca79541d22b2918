import { randomUUID } from 'node:crypto';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RECORDINGS_DIR } from '@bosun/agent';
import { describe, expect, it } from 'vitest';
import { call, createConversation } from './support/http.ts';
import { testServerPerFile } from './support/shared-server.ts';

const server = testServerPerFile();

const PLAYER = '<!doctype html><html><body><script>const FRAMES = [];</script></body></html>\n';

/** A conversation with one recording (as `browser_stop_recording` leaves it) and a file next to its folder. */
async function conversationWithRecording(): Promise<{ id: string; dir: string }> {
  const { id } = await createConversation(server.url);
  const stateDir = join(server.dataDir, 'conversations', id);
  const dir = join(stateDir, RECORDINGS_DIR);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'recording-2026-01-02T03-04-05-006Z.html'), PLAYER);
  await writeFile(join(stateDir, 'TASKS.json'), '{"private": true}');
  return { id, dir };
}

describe('browser recordings of a conversation', () => {
  it('lists the recordings and sends one as a sandboxed HTML attachment', async () => {
    const { id } = await conversationWithRecording();
    const list = await call<{ items: { name: string; size_bytes: number; modified_at: string }[] }>(
      server.url,
      `/api/conversations/${id}/recordings`,
    );
    expect(list.status, list.text).toBe(200);
    expect(list.body.items).toEqual([
      {
        name: 'recording-2026-01-02T03-04-05-006Z.html',
        size_bytes: Buffer.byteLength(PLAYER),
        modified_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      },
    ]);

    const response = await fetch(`${server.url}/api/conversations/${id}/recordings/${list.body.items[0]?.name}`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(PLAYER);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(
      'attachment; filename="recording-2026-01-02T03-04-05-006Z.html"',
    );
    expect(response.headers.get('content-security-policy')).toBe('sandbox allow-scripts');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('answers 404 for unknown recordings and conversations, and an empty list when there are none', async () => {
    const { id } = await conversationWithRecording();
    const missing = await call(server.url, `/api/conversations/${id}/recordings/recording-nope.html`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ detail: 'Recording not found: recording-nope.html' });

    const unknown = randomUUID();
    expect((await call(server.url, `/api/conversations/${unknown}/recordings`)).status).toBe(404);
    expect((await call(server.url, `/api/conversations/${unknown}/recordings/a.html`)).status).toBe(404);

    const { id: empty } = await createConversation(server.url);
    const none = await call(server.url, `/api/conversations/${empty}/recordings`);
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ items: [] });
  });

  it('never serves a file outside the recordings folder: paths are a 422 or a 404, links are not followed', async () => {
    const { id, dir } = await conversationWithRecording();
    await symlink(join(dir, '..', 'TASKS.json'), join(dir, 'linked.html'));
    for (const name of ['..%2FTASKS.json', '%2e%2e%2fTASKS.json', '.hidden', '..', 'a%2Fb', 'x%00.html']) {
      const reply = await call(server.url, `/api/conversations/${id}/recordings/${name}`);
      expect([404, 422], `${name}: ${reply.status}`).toContain(reply.status);
      expect(reply.text).not.toContain('private');
    }
    const traversal = await call<{ detail: { loc: unknown[] }[] }>(
      server.url,
      `/api/conversations/${id}/recordings/..%2FTASKS.json`,
    );
    expect(traversal.status).toBe(422);
    expect(traversal.body.detail[0]?.loc).toEqual(['path', 'file_name']);
    const linked = await call(server.url, `/api/conversations/${id}/recordings/linked.html`);
    expect(linked.status).toBe(404);
    const list = await call<{ items: { name: string }[] }>(server.url, `/api/conversations/${id}/recordings`);
    expect(list.body.items.map((item) => item.name)).toEqual(['recording-2026-01-02T03-04-05-006Z.html']);
    expect((await call(server.url, '/api/conversations/not-a-uuid/recordings')).status).toBe(422);
  });
});
