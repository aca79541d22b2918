import { randomUUID } from 'node:crypto';
import { type AppServerApi, AppServerClient, BosunApiError, type OperationAt } from '@bosun/client';
import { SharedConversation } from '@bosun/protocol';
import { beforeAll, expect, it } from 'vitest';
import { newConversation } from '../events/support.ts';
import { type Answer, type Api, type TestUser, describeApi } from './harness.ts';

const SECRET = 'sk-shared-secret-value-9';
const TOKEN = 'ghp_shared_token_value_7';

/** What only the owner may see of a conversation (or use: its sandbox and agent server): never shared. */
const OWNERS_ONLY = [
  'sandbox_status',
  'sandbox_status_detail',
  'execution_status',
  'conversation_url',
  'session_api_key',
  'tags',
  'public',
  'loaded_marketplaces',
  'loaded_plugins',
];
const SHARED_FIELDS = Object.keys(SharedConversation.properties);

const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString();

/** Five events: messages at 0, 2 and 4 s (the one at 2 s tells the owner's secret and token), pauses at 1 and 3 s. */
function eventsOf(secretText: string) {
  return [0, 1, 2, 3, 4].map((second) => {
    const base = { id: randomUUID(), timestamp: at(second), source: second % 2 ? 'user' : 'agent' };
    if (second % 2) return { ...base, kind: 'PauseEvent' };
    return { ...base, kind: 'MessageEvent', text: second === 2 ? secretText : `message ${second}` };
  });
}

type StoredLike = { id: string; kind: string; timestamp: string; source: string };

/** The owner's conversation, its sandbox gone, with `events` in the app's store. */
async function conversationWith(api: Api, owner: TestUser, events: StoredLike[]): Promise<string> {
  const id = await newConversation(api, owner.id, 'a-sandbox-that-is-gone');
  await api.repositories.conversations.update(owner.id, id, { title: 'Shared work' });
  await api.repositories.events.append(
    id,
    owner.id,
    events.map((event) => ({ ...event, json: JSON.stringify(event) })),
  );
  return id;
}

/** Every shared read of conversation `id` (events named by `eventIds`), without credentials. */
async function sharedReads(api: Api, id: string, eventIds: string[]): Promise<Record<string, Answer>> {
  const ids = eventIds.map((eventId) => `&id=${eventId}`).join('');
  const paths = {
    conversations: `/api/shared-conversations?ids=${id}`,
    search: `/api/shared-events/search?conversation_id=${id}`,
    count: `/api/shared-events/count?conversation_id=${id}`,
    batch: `/api/shared-events?conversation_id=${id}${ids}`,
    single: `/api/shared-events/${id}/${eventIds[0]}`,
  };
  const answers = await Promise.all(Object.values(paths).map((path) => api.call(path)));
  return Object.fromEntries(Object.keys(paths).map((name, index) => [name, answers[index] as Answer]));
}

/** The answers' statuses and bodies, the conversation's id standing for itself (as an unknown id's would). */
function comparable(answers: Record<string, Answer>, id: string) {
  return Object.fromEntries(
    Object.entries(answers).map(([name, answer]) => [
      name,
      { status: answer.status, text: answer.text.split(id).join('<id>') },
    ]),
  );
}

describeApi('shared (public, read-only) conversations', (api) => {
  let owner: TestUser;
  let anyone: AppServerClient;
  const publish = (id: string, value: boolean | null, as = owner) =>
    api().call(`/api/v1/app-conversations/${id}`, { method: 'PATCH', as, body: { public: value } });
  const sharedConversations = (ids: string[]) => anyone.get('/api/shared-conversations', { query: { ids } });
  const searchShared = (query: OperationAt<AppServerApi, '/api/shared-events/search', 'get'>['query']) =>
    anyone.get('/api/shared-events/search', { query });
  const countShared = (query: OperationAt<AppServerApi, '/api/shared-events/count', 'get'>['query']) =>
    anyone.get('/api/shared-events/count', { query });
  const sharedEvent = (id: string, eventId: string) =>
    anyone.get('/api/shared-events/{conversation_id}/{event_id}', {
      params: { conversation_id: id, event_id: eventId },
    });

  beforeAll(async () => {
    owner = await api().user();
    anyone = new AppServerClient({ baseUrl: api().url });
    const secret = await api().call('/api/v1/secrets', {
      method: 'POST',
      as: owner,
      body: { name: 'K', value: SECRET },
    });
    expect(secret.status, secret.text).toBe(201);
    const token = await api().call('/api/v1/secrets/git-providers', {
      method: 'POST',
      as: owner,
      body: { provider_tokens: { github: { token: TOKEN } } },
    });
    expect(token.status, token.text).toBeLessThan(300);
  });

  it('are private until the owner makes them public; then anyone reads them without credentials, secrets masked', async () => {
    const events = eventsOf(`the key is ${SECRET}, the token ${TOKEN}`);
    const id = await conversationWith(api(), owner, events);
    const [own] = (await api().call(`/api/v1/app-conversations?ids=${id}`, { as: owner })).body;
    expect(own.public).toBe(false);
    expect(await sharedConversations([id])).toEqual([null]);

    const made = await publish(id, true);
    expect(made.status, made.text).toBe(200);
    expect(made.body.public).toBe(true);
    expect((await publish(id, null)).body.public).toBe(true);
    const unknown = randomUUID();
    const [shared, none] = await sharedConversations([id.replace(/-/g, ''), unknown]);
    expect(none).toBeNull();
    expect(Object.keys(shared ?? {}).sort()).toEqual([...SHARED_FIELDS].sort());
    for (const field of OWNERS_ONLY) expect(SHARED_FIELDS).not.toContain(field);
    expect(shared).toMatchObject({ id, title: 'Shared work', created_by_user_id: null, sandbox_id: null });

    const masked = events.map((event) =>
      'text' in event && event.text.includes(SECRET)
        ? { ...event, text: 'the key is **********, the token **********' }
        : event,
    );
    expect((await searchShared({ conversation_id: id })).items).toEqual(masked);
    expect(await countShared({ conversation_id: id })).toBe(5);
    const batch = [events[2]?.id as string, 'unknown', events[0]?.id as string];
    expect(await anyone.get('/api/shared-events', { query: { conversation_id: id, id: batch } })).toEqual([
      masked[2],
      null,
      masked[0],
    ]);
    expect(await sharedEvent(id, events[2]?.id as string)).toEqual(masked[2]);
    const reads = await sharedReads(api(), id, [events[2]?.id as string]);
    for (const answer of Object.values(reads)) {
      expect(answer.status).toBe(200);
      expect(answer.text).not.toContain(SECRET);
      expect(answer.text).not.toContain(TOKEN);
      expect(answer.text).not.toContain(owner.id);
    }
  });

  it('answer for a conversation made private again, or deleted, exactly as for an unknown id', async () => {
    const events = eventsOf('nothing secret');
    const eventIds = events.map((event) => event.id);
    const unknownId = randomUUID();
    const unknown = comparable(await sharedReads(api(), unknownId, eventIds), unknownId);
    expect(unknown.conversations).toEqual({ status: 200, text: '[null]' });
    expect(unknown.batch).toEqual({ status: 200, text: `[${eventIds.map(() => 'null').join(',')}]` });
    for (const name of ['search', 'count', 'single']) expect(unknown[name]?.status).toBe(404);

    const id = await conversationWith(api(), owner, events);
    await publish(id, true);
    expect((await sharedReads(api(), id, eventIds)).single?.status).toBe(200);
    expect((await publish(id, false)).body.public).toBe(false);
    expect(comparable(await sharedReads(api(), id, eventIds), id)).toEqual(unknown);
    const refused = await sharedEvent(id, eventIds[0] as string).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(BosunApiError);
    expect((refused as BosunApiError).status).toBe(404);

    await publish(id, true);
    const deleted = await api().call(`/api/v1/app-conversations/${id}`, { method: 'DELETE', as: owner });
    expect(deleted.status, deleted.text).toBe(200);
    expect(comparable(await sharedReads(api(), id, eventIds), id)).toEqual(unknown);
  });

  it('are made public or private by their owner only', async () => {
    const id = await conversationWith(api(), owner, eventsOf('x'));
    const stranger = await api().user();
    expect((await publish(id, true, stranger)).status).toBe(404);
    expect(await sharedConversations([id])).toEqual([null]);
    await publish(id, true);
    expect((await publish(id, false, stranger)).status).toBe(404);
    expect((await sharedConversations([id]))[0]?.id).toBe(id);
  });

  it('filter by kind and time, and page, as the owner’s events search does', async () => {
    const events = eventsOf('no secret here');
    const id = await conversationWith(api(), owner, events);
    await publish(id, true);
    const queries = [
      'kind__eq=MessageEvent',
      'kind=openhands.sdk.event.PauseEvent',
      `timestamp__gte=${at(1)}&timestamp__lt=${at(4)}`,
      'sort_order=TIMESTAMP_DESC&limit=2',
      `limit=2&page_id=${events[2]?.id}`,
      `after_event_id=${events[3]?.id}`,
      'source=user',
    ];
    for (const query of queries) {
      const shared = await api().call(`/api/shared-events/search?conversation_id=${id}&${query}`);
      const own = await api().call(`/api/v1/conversation/${id}/events/search?${query}`, { as: owner });
      expect(shared.status, query).toBe(200);
      expect(shared.body, query).toEqual(own.body);
    }
    const kinds = await searchShared({ conversation_id: id, kind__eq: 'MessageEvent' });
    expect(kinds.items.map((event) => event.id)).toEqual([events[0]?.id, events[2]?.id, events[4]?.id]);
    const first = await searchShared({ conversation_id: id, limit: 2 });
    expect(first.items.map((event) => event.id)).toEqual([events[0]?.id, events[1]?.id]);
    expect(first.next_page_id).toBe(events[2]?.id);
    const rest = await searchShared({ conversation_id: id, limit: 3, page_id: first.next_page_id as string });
    expect(rest.items.map((event) => event.id)).toEqual(events.slice(2).map((event) => event.id));
    expect(rest.next_page_id).toBeNull();
    expect(await countShared({ conversation_id: id, kind__eq: 'PauseEvent' })).toBe(2);
    expect(await countShared({ conversation_id: id, timestamp__gte: at(3) })).toBe(2);
  });

  it('are in the OpenAPI document at OpenHands’ paths, needing no credentials', async () => {
    const document = (await api().call('/openapi.json')).body;
    for (const path of [
      '/api/shared-conversations',
      '/api/shared-events/search',
      '/api/shared-events/count',
      '/api/shared-events',
      '/api/shared-events/{conversation_id}/{event_id}',
    ]) {
      expect(document.paths[path]?.get?.security, path).toEqual([]);
    }
    const { schemas } = document.components;
    expect(Object.keys(schemas.SharedConversation.properties).sort()).toEqual([...SHARED_FIELDS].sort());
    expect(schemas.AppConversationUpdateRequest.properties.public).toBeDefined();
    expect(schemas.AppConversation.properties.public).toBeDefined();
  });

  it('refuse malformed input with 422, whether the conversation is shared or not', async () => {
    const id = await conversationWith(api(), owner, eventsOf('x'));
    await publish(id, true);
    const malformed = [
      '/api/shared-conversations?ids=not-an-id',
      '/api/shared-conversations',
      '/api/shared-events/search?conversation_id=nope',
      `/api/shared-events/search?conversation_id=${id}&limit=0`,
      `/api/shared-events/search?conversation_id=${id}&page_id=unknown`,
      `/api/shared-events/count?conversation_id=${id}&timestamp__gte=yesterday`,
      `/api/shared-events?conversation_id=${id}`,
      '/api/shared-events/nope/event',
    ];
    for (const path of malformed) {
      const answer = await api().call(path);
      expect(answer.status, path).toBe(422);
      expect(answer.body.detail[0], path).toMatchObject({ loc: expect.any(Array), msg: expect.any(String) });
    }
    expect((await publish(id, 'yes' as never)).status).toBe(422);
  });
});

describeApi(
  'shared conversations, rate limited',
  (api) => {
    it('answer 429 with Retry-After once the client address has read too much, every shared route counted', async () => {
      const unknown = randomUUID();
      const statuses = [];
      for (const path of [
        `/api/shared-conversations?ids=${unknown}`,
        `/api/shared-events/count?conversation_id=${unknown}`,
        `/api/shared-events/${unknown}/event`,
      ]) {
        statuses.push((await api().call(path)).status);
      }
      expect(statuses).toEqual([200, 404, 404]);
      const malformed = await api().call('/api/shared-conversations?ids=nope');
      expect(malformed.status).toBe(422);
      const refused = await api().call(`/api/shared-events/search?conversation_id=${unknown}`);
      expect(refused.status).toBe(429);
      expect(typeof refused.body.detail).toBe('string');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      const owner = await api().user();
      expect((await api().call('/api/v1/app-conversations/count', { as: owner })).status).toBe(200);
    });
  },
  { rateLimits: { shared_read: { limit: 3, windowMs: 60_000 } } },
);
