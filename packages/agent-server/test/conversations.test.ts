import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AgentRunner } from '../src/index.ts';
import {
  type ConversationInfoBody,
  type Page,
  allEvents,
  call,
  createConversation,
  eventually,
  sendMessage,
  untilStatus,
} from './support/http.ts';
import { type TestServer, startRequest, startTestServer } from './support/server.ts';

const SECRET = 'sk-test-secret';
const REDACTED = '**********';

let shared: TestServer;
const ownServers: TestServer[] = [];
beforeAll(async () => {
  shared = await startTestServer();
});
afterAll(async () => {
  await shared.close();
});
afterEach(async () => {
  await Promise.all(ownServers.splice(0).map((s) => s.close()));
});

/** A server of the test's own, for tests that look at every conversation of a server. */
async function ownServer(options: Parameters<typeof startTestServer>[0] = {}): Promise<string> {
  const server = await startTestServer(options);
  ownServers.push(server);
  return server.url;
}

function post(base: string, body: unknown) {
  return call<ConversationInfoBody>(base, '/api/conversations', { method: 'POST', json: body });
}

describe('POST /api/conversations', () => {
  it('creates a conversation: 201 with its info', async () => {
    const id = randomUUID();
    const reply = await post(shared.url, startRequest({ conversation_id: id, title: 'First', tags: { team: 'a1' } }));
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({
      id,
      title: 'First',
      tags: { team: 'a1' },
      execution_status: 'idle',
      event_count: 0,
      last_user_message_id: null,
      workspace: { working_dir: '/tmp/bosun-test-workspace', kind: 'LocalWorkspace' },
      confirmation_policy: { kind: 'NeverConfirm' },
      max_iterations: 500,
      metrics: expect.objectContaining({ model_name: 'test-model', accumulated_cost: 0 }),
    });
    expect(reply.body.agent).toMatchObject({ kind: 'Agent', tools: [{ name: 'terminal', params: {} }] });
    expect(reply.body.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    expect(reply.body.updated_at).toMatch(/Z$/);
  });

  it('generates a UUID when no conversation_id is given', async () => {
    const body = startRequest();
    const reply = await post(shared.url, body);
    expect(reply.status).toBe(201);
    expect(reply.body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const again = await call(shared.url, `/api/conversations/${reply.body.id}`);
    expect(again.status).toBe(200);
  });

  it('is idempotent on conversation_id: 200 with the existing conversation, the new body ignored', async () => {
    const id = randomUUID();
    const first = await post(shared.url, startRequest({ conversation_id: id, title: 'Original' }));
    expect(first.status).toBe(201);
    const second = await post(shared.url, startRequest({ conversation_id: id, title: 'Other' }));
    expect(second.status).toBe(200);
    expect(second.body.id).toBe(id);
    expect(second.body.title).toBe('Original');
    expect(second.body.created_at).toBe(first.body.created_at);
    // The same id spelled in upper case is the same conversation.
    const upper = await post(shared.url, startRequest({ conversation_id: id.toUpperCase() }));
    expect(upper.status).toBe(200);
    expect(upper.body.id).toBe(id);
  });

  it('creates exactly one conversation when the same id is posted concurrently', async () => {
    const id = randomUUID();
    const replies = await Promise.all(
      Array.from({ length: 8 }, () => post(shared.url, startRequest({ conversation_id: id }))),
    );
    const statuses = replies.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
    for (const reply of replies) expect(reply.body.id).toBe(id);
  });

  it('starts with the initial message and runs it', async () => {
    const info = await createConversation(shared.url, {
      initial_message: { role: 'user', content: [{ type: 'text', text: 'hello there' }] },
    });
    await eventually(async () => {
      const events = await allEvents(shared.url, info.id);
      return events.some((e) => e.kind === 'ConversationStateUpdateEvent' && e.value === 'idle');
    });
    const events = await allEvents(shared.url, info.id);
    expect(events[0]).toMatchObject({
      kind: 'MessageEvent',
      source: 'user',
      llm_message: { role: 'user', content: [{ type: 'text', text: 'hello there' }] },
    });
    expect(events.slice(1).map((e) => [e.kind, e.key, e.value])).toEqual([
      ['ConversationStateUpdateEvent', 'execution_status', 'running'],
      ['ConversationStateUpdateEvent', 'execution_status', 'idle'],
    ]);
    const got = await call<ConversationInfoBody>(shared.url, `/api/conversations/${info.id}`);
    expect(got.body.last_user_message_id).toBe(events[0]?.id);
    expect(got.body.event_count).toBe(3);
  });

  it('answers 422 when agent is missing', async () => {
    const { agent: _agent, ...body } = startRequest();
    const reply = await post(shared.url, body);
    expect(reply.status).toBe(422);
    // (This server has no default agent to fall back on.)
    expect(reply.body).toEqual({
      detail: [{ loc: ['body', 'agent'], msg: expect.stringMatching(/^Field required/), type: 'missing' }],
    });
  });

  it('answers 422 when workspace is missing', async () => {
    const { workspace: _workspace, ...body } = startRequest();
    const reply = await post(shared.url, body);
    expect(reply.status).toBe(422);
    expect(reply.body).toEqual({ detail: [{ loc: ['body', 'workspace'], msg: 'Field required', type: 'missing' }] });
  });

  it('answers 422 for an empty object, and reports every schema error at once', async () => {
    const reply = await post(shared.url, {});
    expect(reply.status).toBe(422);
    expect((reply.body as unknown as { detail: unknown[] }).detail).toEqual(
      expect.arrayContaining([expect.objectContaining({ loc: ['body', 'workspace'], type: 'missing' })]),
    );
    const several = await post(shared.url, { ...startRequest(), workspace: {}, max_iterations: 0, extra: true });
    expect(several.status).toBe(422);
    const locs = (several.body as unknown as { detail: { loc: unknown[] }[] }).detail.map((d) => d.loc);
    expect(locs).toEqual(
      expect.arrayContaining([
        ['body', 'workspace', 'working_dir'],
        ['body', 'max_iterations'],
        ['body', 'extra'],
      ]),
    );
  });

  it('answers 422 for an unknown property (nothing is stripped)', async () => {
    const reply = await post(shared.url, startRequest({ colour: 'blue' }));
    expect(reply.status).toBe(422);
    expect(reply.body).toEqual({
      detail: [{ loc: ['body', 'colour'], msg: expect.any(String), type: 'extra_forbidden' }],
    });
  });

  it('answers 422 for an unknown property nested in the agent', async () => {
    const body = startRequest();
    (body.agent as Record<string, unknown>).extra = 1;
    const reply = await post(shared.url, body);
    expect(reply.status).toBe(422);
    expect(reply.body).toMatchObject({ detail: [{ loc: ['body', 'agent', 'extra'], type: 'extra_forbidden' }] });
  });

  it('answers 422 for a conversation_id that is not a UUID', async () => {
    const reply = await post(shared.url, startRequest({ conversation_id: 'not-a-uuid' }));
    expect(reply.status).toBe(422);
    expect(reply.body).toMatchObject({ detail: [{ loc: ['body', 'conversation_id'], type: 'uuid_parsing' }] });
  });

  it('answers 422 for a body that is not JSON, or no body', async () => {
    const bad = await call(shared.url, '/api/conversations', {
      method: 'POST',
      raw: '{"agent":',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ detail: [{ loc: ['body'], type: 'json_invalid' }] });
    const none = await call(shared.url, '/api/conversations', { method: 'POST' });
    expect(none.status).toBe(422);
    expect(none.body).toMatchObject({ detail: [{ loc: ['body'] }] });
  });

  it('redacts the LLM api key and every secret, and never returns a secret anywhere', async () => {
    const body = startRequest({ secrets: { GITHUB_TOKEN: 'ghp-very-secret', OTHER: { value: 'other-secret' } } });
    (body.agent as { llm: Record<string, unknown> }).llm.aws_secret_access_key = 'aws-very-secret';
    // A gateway's credential often travels in an extra header.
    (body.agent as { llm: Record<string, unknown> }).llm.extra_headers = { 'X-Gateway-Key': 'header-very-secret' };
    const reply = await post(shared.url, body);
    expect(reply.status).toBe(201);
    expect(reply.body.agent.llm.api_key).toBe(REDACTED);
    expect(reply.body.agent.llm.aws_secret_access_key).toBe(REDACTED);
    expect(reply.body.agent.llm.extra_headers).toEqual({ 'X-Gateway-Key': REDACTED });
    expect(reply.body.secret_registry).toEqual({
      secret_sources: {
        GITHUB_TOKEN: { kind: 'StaticSecret', value: REDACTED },
        OTHER: { kind: 'StaticSecret', value: REDACTED },
      },
    });
    const id = reply.body.id;
    const texts = [
      reply.text,
      (await post(shared.url, { ...body, conversation_id: id })).text,
      (await call(shared.url, `/api/conversations/${id}`)).text,
      (await call(shared.url, `/api/conversations?ids=${id}&ids=${randomUUID()}`)).text,
      (await call(shared.url, '/api/conversations/search')).text,
    ];
    for (const text of texts) {
      expect(text).toContain(id);
      for (const secret of [SECRET, 'ghp-very-secret', 'other-secret', 'aws-very-secret', 'header-very-secret']) {
        expect(text).not.toContain(secret);
      }
    }
  });
});

describe('GET /api/conversations/{id}', () => {
  it('answers 200 with the conversation', async () => {
    const info = await createConversation(shared.url, { title: 'Look me up' });
    const reply = await call<ConversationInfoBody>(shared.url, `/api/conversations/${info.id}`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual(info);
  });

  it('accepts the id in upper case', async () => {
    const info = await createConversation(shared.url);
    const reply = await call<ConversationInfoBody>(shared.url, `/api/conversations/${info.id.toUpperCase()}`);
    expect(reply.status).toBe(200);
    expect(reply.body.id).toBe(info.id);
  });

  it('answers 404 with a detail for an unknown conversation', async () => {
    const reply = await call<{ detail: unknown }>(shared.url, `/api/conversations/${randomUUID()}`);
    expect(reply.status).toBe(404);
    expect(typeof reply.body.detail).toBe('string');
  });

  it('answers 422 with loc ["path","conversation_id"] for an id that is not a UUID', async () => {
    const reply = await call(shared.url, '/api/conversations/not-a-uuid');
    expect(reply.status).toBe(422);
    expect(reply.body).toEqual({
      detail: [{ loc: ['path', 'conversation_id'], msg: expect.any(String), type: 'uuid_parsing' }],
    });
  });
});

describe('GET /api/conversations?ids=', () => {
  it('returns the conversations in the order asked, null for each unknown id', async () => {
    const a = await createConversation(shared.url, { title: 'A' });
    const b = await createConversation(shared.url, { title: 'B' });
    const unknown = randomUUID();
    const reply = await call<(ConversationInfoBody | null)[]>(
      shared.url,
      `/api/conversations?ids=${b.id}&ids=${unknown}&ids=${a.id}&ids=${b.id}`,
    );
    expect(reply.status).toBe(200);
    expect(reply.body.map((c) => c?.title ?? null)).toEqual(['B', null, 'A', 'B']);
    expect(reply.body[0]).toEqual(b);
  });

  it('accepts a single id', async () => {
    const a = await createConversation(shared.url);
    const reply = await call<(ConversationInfoBody | null)[]>(shared.url, `/api/conversations?ids=${a.id}`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual([a]);
    const unknown = await call(shared.url, `/api/conversations?ids=${randomUUID()}`);
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual([null]);
  });

  it('accepts 100 ids and answers 422 for more than 100', async () => {
    const ids = Array.from({ length: 101 }, () => randomUUID());
    const hundred = await call<unknown[]>(
      shared.url,
      `/api/conversations?${ids
        .slice(0, 100)
        .map((id) => `ids=${id}`)
        .join('&')}`,
    );
    expect(hundred.status).toBe(200);
    expect(hundred.body).toHaveLength(100);
    const over = await call(shared.url, `/api/conversations?${ids.map((id) => `ids=${id}`).join('&')}`);
    expect(over.status).toBe(422);
    expect(over.body).toMatchObject({ detail: [{ loc: ['query', 'ids'], type: 'too_long' }] });
  });

  it('answers 422 without ids and for an id that is not a UUID', async () => {
    const none = await call(shared.url, '/api/conversations');
    expect(none.status).toBe(422);
    expect(none.body).toMatchObject({ detail: [{ loc: ['query', 'ids'], type: 'missing' }] });
    const bad = await call(shared.url, `/api/conversations?ids=${randomUUID()}&ids=nope`);
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ detail: [{ loc: ['query', 'ids', 1], type: 'uuid_parsing' }] });
  });
});

describe('GET /api/conversations/search and /count', () => {
  async function searchAll(base: string, query: string, limit: number): Promise<{ ids: string[]; pages: number }> {
    const ids: string[] = [];
    let pageId: string | null = null;
    let pages = 0;
    do {
      const reply: { status: number; text: string; body: Page<ConversationInfoBody> } = await call<
        Page<ConversationInfoBody>
      >(base, `/api/conversations/search?limit=${limit}${query}${pageId ? `&page_id=${pageId}` : ''}`);
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body.items.length).toBeLessThanOrEqual(limit);
      ids.push(...reply.body.items.map((c) => c.id));
      pageId = reply.body.next_page_id;
      pages++;
      if (pageId) expect(ids).not.toContain(pageId);
    } while (pageId);
    return { ids, pages };
  }

  it('pages with next_page_id, the id of the first item of the next page', async () => {
    const base = await ownServer();
    const created: string[] = [];
    for (let i = 0; i < 5; i++) created.push((await createConversation(base)).id);

    const all = await call<Page<ConversationInfoBody>>(base, '/api/conversations/search');
    expect(all.status).toBe(200);
    expect(all.body.next_page_id).toBeNull();
    const everything = all.body.items.map((c) => c.id);
    expect([...everything].sort()).toEqual([...created].sort());

    const first = await call<Page<ConversationInfoBody>>(base, '/api/conversations/search?limit=2');
    expect(first.body.items.map((c) => c.id)).toEqual(everything.slice(0, 2));
    expect(first.body.next_page_id).toBe(everything[2]);
    const second = await call<Page<ConversationInfoBody>>(
      base,
      `/api/conversations/search?limit=2&page_id=${first.body.next_page_id}`,
    );
    expect(second.body.items.map((c) => c.id)).toEqual(everything.slice(2, 4));
    expect(second.body.next_page_id).toBe(everything[4]);

    const paged = await searchAll(base, '', 2);
    expect(paged).toEqual({ ids: everything, pages: 3 });
    expect((await searchAll(base, '', 1)).ids).toEqual(everything);
    expect((await searchAll(base, '', 5)).pages).toBe(1);
  });

  it('sorts by creation (newest first by default) and by update time, both ways', async () => {
    const base = await ownServer();
    const created: string[] = [];
    for (let i = 0; i < 4; i++) {
      created.push((await createConversation(base)).id);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const order = async (sort: string) =>
      (
        await call<Page<ConversationInfoBody>>(base, `/api/conversations/search${sort ? `?sort_order=${sort}` : ''}`)
      ).body.items.map((c) => c.id);

    expect(await order('CREATED_AT')).toEqual(created);
    expect(await order('CREATED_AT_DESC')).toEqual([...created].reverse());
    expect(await order('')).toEqual([...created].reverse());

    // Touch the oldest: it becomes the most recently updated.
    const patched = await call(base, `/api/conversations/${created[0]}`, { method: 'PATCH', json: { title: 'now' } });
    expect(patched.status).toBe(200);
    const expectedUpdated = [...created.slice(1), created[0]];
    expect(await order('UPDATED_AT')).toEqual(expectedUpdated);
    expect(await order('UPDATED_AT_DESC')).toEqual([...expectedUpdated].reverse());
    // Paging follows the sort order.
    expect((await searchAll(base, '&sort_order=UPDATED_AT', 3)).ids).toEqual(expectedUpdated);
    expect((await searchAll(base, '&sort_order=CREATED_AT', 1)).ids).toEqual(created);
  });

  it('filters by status, and counts with and without the filter', async () => {
    const base = await ownServer();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await createConversation(base)).id);
    expect((await call(base, `/api/conversations/${ids[1]}/pause`, { method: 'POST' })).status).toBe(200);

    const paused = await call<Page<ConversationInfoBody>>(base, '/api/conversations/search?status=paused');
    expect(paused.status).toBe(200);
    expect(paused.body.items.map((c) => [c.id, c.execution_status])).toEqual([[ids[1], 'paused']]);
    const idle = await call<Page<ConversationInfoBody>>(
      base,
      '/api/conversations/search?status=idle&sort_order=CREATED_AT',
    );
    expect(idle.body.items.map((c) => c.id)).toEqual([ids[0], ids[2]]);
    expect((await searchAll(base, '&status=idle', 1)).ids).toEqual([ids[2], ids[0]]);
    const none = await call<Page<ConversationInfoBody>>(base, '/api/conversations/search?status=finished');
    expect(none.body).toEqual({ items: [], next_page_id: null });

    expect((await call(base, '/api/conversations/count')).body).toBe(3);
    expect((await call(base, '/api/conversations/count?status=paused')).body).toBe(1);
    expect((await call(base, '/api/conversations/count?status=idle')).body).toBe(2);
    expect((await call(base, '/api/conversations/count?status=running')).body).toBe(0);
  });

  it('counts 0 on an empty server and answers a bare integer', async () => {
    const base = await ownServer();
    const reply = await call(base, '/api/conversations/count');
    expect(reply.status).toBe(200);
    expect(reply.text).toBe('0');
    const page = await call(base, '/api/conversations/search');
    expect(page.body).toEqual({ items: [], next_page_id: null });
  });

  it('answers 422 for a limit of 0 or 101, and accepts 1 and 100', async () => {
    for (const limit of [0, 101, -1]) {
      const reply = await call(shared.url, `/api/conversations/search?limit=${limit}`);
      expect(reply.status).toBe(422);
      expect(reply.body).toMatchObject({ detail: [{ loc: ['query', 'limit'] }] });
    }
    const word = await call(shared.url, '/api/conversations/search?limit=many');
    expect(word.status).toBe(422);
    expect(word.body).toMatchObject({ detail: [{ loc: ['query', 'limit'] }] });
    for (const limit of [1, 100])
      expect((await call(shared.url, `/api/conversations/search?limit=${limit}`)).status).toBe(200);
  });

  it('answers 422 for an unknown page_id, status or sort order', async () => {
    const page = await call(shared.url, `/api/conversations/search?page_id=${randomUUID()}`);
    expect(page.status).toBe(422);
    expect(page.body).toMatchObject({ detail: [{ loc: ['query', 'page_id'] }] });
    const status = await call(shared.url, '/api/conversations/search?status=sleeping');
    expect(status.status).toBe(422);
    expect(status.body).toMatchObject({ detail: [{ loc: ['query', 'status'] }] });
    const sort = await call(shared.url, '/api/conversations/search?sort_order=RANDOM');
    expect(sort.status).toBe(422);
    expect(sort.body).toMatchObject({ detail: [{ loc: ['query', 'sort_order'] }] });
    const count = await call(shared.url, '/api/conversations/count?status=sleeping');
    expect(count.status).toBe(422);
    expect(count.body).toMatchObject({ detail: [{ loc: ['query', 'status'] }] });
  });
});

describe('PATCH /api/conversations/{id}', () => {
  it('changes the title (trimmed) and replaces the tags', async () => {
    const info = await createConversation(shared.url, { title: 'Before', tags: { a: '1', b: '2' } });
    const reply = await call(shared.url, `/api/conversations/${info.id}`, {
      method: 'PATCH',
      json: { title: '  After  ', tags: { c3: 'three' } },
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ success: true });
    const got = await call<ConversationInfoBody>(shared.url, `/api/conversations/${info.id}`);
    expect(got.body.title).toBe('After');
    expect(got.body.tags).toEqual({ c3: 'three' });
    expect(got.body.updated_at >= info.updated_at).toBe(true);

    // Only the fields given change.
    await call(shared.url, `/api/conversations/${info.id}`, { method: 'PATCH', json: { tags: {} } });
    const again = await call<ConversationInfoBody>(shared.url, `/api/conversations/${info.id}`);
    expect(again.body.title).toBe('After');
    expect(again.body.tags).toEqual({});
  });

  it('answers 404 for an unknown conversation', async () => {
    const reply = await call(shared.url, `/api/conversations/${randomUUID()}`, {
      method: 'PATCH',
      json: { title: 'x' },
    });
    expect(reply.status).toBe(404);
    expect(reply.body).toEqual({ detail: expect.any(String) });
  });

  it('answers 422 for a bad tag key, an unknown property, an empty title or a non-UUID id', async () => {
    const info = await createConversation(shared.url);
    const path = `/api/conversations/${info.id}`;
    const badKey = await call(shared.url, path, { method: 'PATCH', json: { tags: { 'Bad-Key': 'v' } } });
    expect(badKey.status).toBe(422);
    expect(badKey.body).toMatchObject({ detail: [{ loc: ['body', 'tags', 'Bad-Key'] }] });
    const badValue = await call(shared.url, path, { method: 'PATCH', json: { tags: { ok: 5 } } });
    expect(badValue.status).toBe(422);
    expect(badValue.body).toMatchObject({ detail: [{ loc: ['body', 'tags', 'ok'], type: 'string_type' }] });
    const unknown = await call(shared.url, path, { method: 'PATCH', json: { status: 'idle' } });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toMatchObject({ detail: [{ loc: ['body', 'status'], type: 'extra_forbidden' }] });
    const empty = await call(shared.url, path, { method: 'PATCH', json: { title: '' } });
    expect(empty.status).toBe(422);
    expect(empty.body).toMatchObject({ detail: [{ loc: ['body', 'title'] }] });
    const notUuid = await call(shared.url, '/api/conversations/xyz', { method: 'PATCH', json: { title: 'x' } });
    expect(notUuid.status).toBe(422);
    expect(notUuid.body).toMatchObject({ detail: [{ loc: ['path', 'conversation_id'] }] });
    // Nothing changed.
    const got = await call<ConversationInfoBody>(shared.url, path);
    expect(got.body.tags).toEqual({});
    expect(got.body.title).toBeNull();
  });
});

describe('DELETE /api/conversations/{id}', () => {
  it('deletes the conversation and its events; afterwards it is 404 everywhere', async () => {
    const base = await ownServer();
    const info = await createConversation(base);
    const keep = await createConversation(base);
    await sendMessage(base, info.id, 'soon gone');
    const reply = await call(base, `/api/conversations/${info.id}`, { method: 'DELETE' });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ success: true });

    expect((await call(base, `/api/conversations/${info.id}`)).status).toBe(404);
    expect((await call(base, `/api/conversations/${info.id}/events/search`)).status).toBe(404);
    expect((await call(base, `/api/conversations/${info.id}/events/count`)).status).toBe(404);
    expect((await call(base, `/api/conversations/${info.id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await call(base, `/api/conversations/${info.id}/run`, { method: 'POST' })).status).toBe(404);
    expect((await call(base, `/api/conversations?ids=${info.id}&ids=${keep.id}`)).body).toEqual([null, keep]);
    expect((await call(base, '/api/conversations/count')).body).toBe(1);
    const page = await call<Page<ConversationInfoBody>>(base, '/api/conversations/search');
    expect(page.body.items.map((c) => c.id)).toEqual([keep.id]);
    // The id can be used again, for a new, empty conversation.
    const again = await post(base, startRequest({ conversation_id: info.id }));
    expect(again.status).toBe(201);
    expect(again.body.event_count).toBe(0);
    expect(await allEvents(base, info.id)).toEqual([]);
  });

  it('answers 404 for an unknown conversation and 422 for a non-UUID id', async () => {
    const unknown = await call(shared.url, `/api/conversations/${randomUUID()}`, { method: 'DELETE' });
    expect(unknown.status).toBe(404);
    const bad = await call(shared.url, '/api/conversations/123', { method: 'DELETE' });
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ detail: [{ loc: ['path', 'conversation_id'] }] });
  });
});

describe('POST /api/conversations/{id}/run and /pause', () => {
  it('runs: 200, then running and idle state events', async () => {
    const info = await createConversation(shared.url);
    const reply = await call(shared.url, `/api/conversations/${info.id}/run`, { method: 'POST' });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ success: true });
    await eventually(async () => (await allEvents(shared.url, info.id)).length === 2);
    const events = await allEvents(shared.url, info.id);
    expect(events).toEqual([
      expect.objectContaining({
        kind: 'ConversationStateUpdateEvent',
        source: 'environment',
        key: 'execution_status',
        value: 'running',
      }),
      expect.objectContaining({ kind: 'ConversationStateUpdateEvent', key: 'execution_status', value: 'idle' }),
    ]);
    const got = await call<ConversationInfoBody>(shared.url, `/api/conversations/${info.id}`);
    expect(got.body.execution_status).toBe('idle');
    expect(got.body.event_count).toBe(2);
  });

  it('answers 409 while a run is in progress, and 200 again once it ended', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const runner: AgentRunner = {
      async run(conversation) {
        await gate;
        await conversation.setStatus('idle');
      },
    };
    const base = await ownServer({ runner });
    const info = await createConversation(base);
    expect((await call(base, `/api/conversations/${info.id}/run`, { method: 'POST' })).status).toBe(200);
    await untilStatus(base, info.id, 'running');
    const busy = await call<{ detail: string }>(base, `/api/conversations/${info.id}/run`, { method: 'POST' });
    expect(busy.status).toBe(409);
    expect(busy.body.detail).toMatch(/already running/);
    // A message sent while running is appended; the running agent picks it up.
    await sendMessage(base, info.id, 'while running', { run: true });
    release();
    await untilStatus(base, info.id, 'idle');
    expect((await call(base, `/api/conversations/${info.id}/run`, { method: 'POST' })).status).toBe(200);
  });

  it('records a run that fails as error, with a ConversationErrorEvent', async () => {
    const runner: AgentRunner = {
      async run() {
        throw new TypeError('the agent broke');
      },
    };
    const base = await ownServer({ runner });
    const info = await createConversation(base);
    expect((await call(base, `/api/conversations/${info.id}/run`, { method: 'POST' })).status).toBe(200);
    await untilStatus(base, info.id, 'error');
    const errors = await allEvents(base, info.id, 'kind=ConversationErrorEvent');
    expect(errors).toEqual([expect.objectContaining({ code: 'TypeError', detail: 'the agent broke' })]);
    // An errored conversation can run again.
    expect((await call(base, `/api/conversations/${info.id}/run`, { method: 'POST' })).status).toBe(200);
  });

  it('pauses: 200, a PauseEvent and the paused status; pausing again adds nothing', async () => {
    const info = await createConversation(shared.url);
    const reply = await call(shared.url, `/api/conversations/${info.id}/pause`, { method: 'POST' });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ success: true });
    const events = await allEvents(shared.url, info.id);
    expect(events).toEqual([
      expect.objectContaining({ kind: 'PauseEvent', source: 'user' }),
      expect.objectContaining({ kind: 'ConversationStateUpdateEvent', key: 'execution_status', value: 'paused' }),
    ]);
    const got = await call<ConversationInfoBody>(shared.url, `/api/conversations/${info.id}`);
    expect(got.body.execution_status).toBe('paused');

    expect((await call(shared.url, `/api/conversations/${info.id}/pause`, { method: 'POST' })).status).toBe(200);
    expect(await allEvents(shared.url, info.id)).toHaveLength(2);

    // A paused conversation runs again.
    expect((await call(shared.url, `/api/conversations/${info.id}/run`, { method: 'POST' })).status).toBe(200);
    await eventually(async () => (await allEvents(shared.url, info.id)).length === 4);
  });

  it('answers 404 for an unknown conversation and 422 for a non-UUID id', async () => {
    for (const action of ['run', 'pause']) {
      const unknown = await call<{ detail: unknown }>(shared.url, `/api/conversations/${randomUUID()}/${action}`, {
        method: 'POST',
      });
      expect(unknown.status).toBe(404);
      expect(typeof unknown.body.detail).toBe('string');
      const bad = await call(shared.url, `/api/conversations/nope/${action}`, { method: 'POST' });
      expect(bad.status).toBe(422);
      expect(bad.body).toMatchObject({ detail: [{ loc: ['path', 'conversation_id'] }] });
    }
  });
});
