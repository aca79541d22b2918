import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { zipEntries } from '../../../../test/support/unzip.ts';
import { newConversation } from '../events/support.ts';
import { type Api, type TestUser, describeApi } from './harness.ts';

const SECRET = 'sk-export-secret-value-7';

/** The answer of `GET path` while PATH holds only an empty directory: no `zip` (nor any other program) to run. */
async function downloadWithoutPrograms(api: Api, path: string, as: TestUser): Promise<Response> {
  const empty = await mkdtemp(join(tmpdir(), 'bosun-no-programs-'));
  const programs = process.env.PATH;
  process.env.PATH = empty;
  try {
    const reply = await fetch(`${api.url}${path}`, { headers: as.headers });
    return new Response(await reply.arrayBuffer(), { status: reply.status, headers: reply.headers });
  } finally {
    process.env.PATH = programs;
    await rm(empty, { recursive: true, force: true });
  }
}

describeApi('a conversation’s export, zipped without a zip program', (api) => {
  let owner: TestUser;
  beforeAll(async () => {
    owner = await api().user();
    const secret = await api().call('/api/v1/secrets', {
      method: 'POST',
      as: owner,
      body: { name: 'K', value: SECRET },
    });
    expect(secret.status, secret.text).toBe(201);
  });

  it('holds meta.json and every event in order, over pages of the store, its secrets masked', async () => {
    const id = await newConversation(api(), owner.id, 'a-sandbox-that-is-gone');
    const at = (index: number) => new Date(Date.UTC(2026, 0, 1) + index * 1000).toISOString();
    const events = Array.from({ length: 1234 }, (_, index) => ({
      id: index === 7 ? 'evt/../7' : randomUUID(),
      kind: 'MessageEvent',
      timestamp: at(index),
      source: 'agent',
      text: index % 100 === 0 ? `the key is ${SECRET}` : `message ${index}`,
    }));
    await api().repositories.events.append(
      id,
      owner.id,
      events.map((event) => ({ ...event, json: JSON.stringify(event) })),
    );

    const reply = await downloadWithoutPrograms(api(), `/api/v1/app-conversations/${id}/download`, owner);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('application/zip');
    expect(reply.headers.get('content-disposition')).toBe(`attachment; filename="conversation_${id}.zip"`);
    expect(reply.headers.get('x-content-type-options')).toBe('nosniff');
    const bytes = new Uint8Array(await reply.arrayBuffer());
    const entries = await zipEntries(bytes);
    const name = (index: number, eventId: string) => `event_${String(index + 1).padStart(6, '0')}_${eventId}.json`;
    expect(entries.map((entry) => entry.path)).toEqual([
      'meta.json',
      ...events.map((event, index) => name(index, index === 7 ? 'evt____7' : event.id)),
    ]);
    expect(JSON.parse(entries[0]?.content ?? '')).toMatchObject({ id, session_api_key: null });
    const exported = entries.slice(1).map((entry) => JSON.parse(entry.content));
    expect(exported).toEqual(
      events.map((event) => (event.text.includes(SECRET) ? { ...event, text: 'the key is **********' } : event)),
    );
    expect(entries.map((entry) => entry.content).join('')).not.toContain(SECRET);
  });
});
