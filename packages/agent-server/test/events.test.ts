import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AgentRunner } from '../src/index.ts';
import {
  type ConversationInfoBody,
  type EventBody,
  type Page,
  allEvents,
  call,
  createConversation,
  eventually,
  getWithBody,
  sendMessage,
  sleep,
} from './support/http.ts';
import { testServerPerFile } from './support/shared-server.ts';

/** A runner that answers every run with one agent message (with reasoning), then goes idle. */
const replyingRunner: AgentRunner = {
  async run(conversation) {
    await conversation.append([
      {
        kind: 'MessageEvent',
        source: 'agent',
        llm_message: {
          role: 'assistant',
          content: [{ type: 'text', text: 'Agent reply about APPLES' }],
          reasoning_content: 'Deep thought on Bananas',
          thinking_blocks: [],
        },
        llm_response_id: 'resp-1',
        activated_skills: [],
        extended_content: [],
      } as never,
    ]);
    await conversation.setStatus('idle');
  },
};

const server = testServerPerFile({ runner: replyingRunner });
let base: string;
beforeAll(() => {
  base = server.url;
});

const MESSAGE_FQN = 'openhands.sdk.event.llm_convertible.message.MessageEvent';

function eventsPath(id: string, rest = ''): string {
  return `/api/conversations/${id}/events${rest}`;
}

async function search(id: string, query: string): Promise<{ status: number; body: Page<EventBody>; text: string }> {
  return call<Page<EventBody>>(base, eventsPath(id, `/search?${query}`));
}

/** `GET /api/conversations/{id}/events{rest}` answers 422 and names the query parameter `field`. */
async function expectQueryRejected(id: string, rest: string, field: string): Promise<void> {
  const reply = await call(base, eventsPath(id, rest));
  expect(reply.status, rest).toBe(422);
  expect(reply.body).toMatchObject({ detail: [{ loc: ['query', field] }] });
}

/** A conversation with one message, and the id of an event of another conversation (unknown to the first). */
async function conversationAndForeignEvent(): Promise<{ id: string; foreignId: string }> {
  const { id } = await createConversation(base);
  await sendMessage(base, id, 'x');
  const other = await createConversation(base);
  await sendMessage(base, other.id, 'y');
  const [foreign] = await allEvents(base, other.id);
  return { id, foreignId: foreign?.id as string };
}

/**
 * A conversation with a varied log: user messages, a run (state updates and an agent message with reasoning)
 * and a pause. Events are spaced a few milliseconds apart so their timestamps differ.
 */
async function seeded(): Promise<{ id: string; events: EventBody[] }> {
  const { id } = await createConversation(base);
  await sendMessage(base, id, 'Hello World');
  await sleep(3);
  await sendMessage(base, id, 'second message');
  await sleep(3);
  await sendMessage(base, id, 'Let us talk about apples', { run: true });
  await eventually(async () => (await allEvents(base, id)).length === 6);
  await sleep(3);
  expect((await call(base, `/api/conversations/${id}/pause`, { method: 'POST' })).status).toBe(200);
  await sleep(3);
  await sendMessage(base, id, 'last one');
  const events = await allEvents(base, id);
  expect(events.map((e) => `${e.kind}:${e.source}`)).toEqual([
    'MessageEvent:user',
    'MessageEvent:user',
    'MessageEvent:user',
    'ConversationStateUpdateEvent:environment',
    'MessageEvent:agent',
    'ConversationStateUpdateEvent:environment',
    'PauseEvent:user',
    'ConversationStateUpdateEvent:environment',
    'MessageEvent:user',
  ]);
  return { id, events };
}

const ids = (events: EventBody[]) => events.map((e) => e.id);

describe('POST /api/conversations/{id}/events', () => {
  it('appends a user message: 200, then it is in the log, without starting a run', async () => {
    const { id } = await createConversation(base);
    const reply = await call(base, eventsPath(id), {
      method: 'POST',
      json: { role: 'user', content: [{ type: 'text', text: 'hi there' }] },
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ success: true });
    const events = await allEvents(base, id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      kind: 'MessageEvent',
      source: 'user',
      llm_message: { role: 'user', content: [{ type: 'text', text: 'hi there' }] },
    });
    expect(events[0]?.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(events[0]?.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const info = await call<ConversationInfoBody>(base, `/api/conversations/${id}`);
    expect(info.body).toMatchObject({ execution_status: 'idle', event_count: 1, last_user_message_id: events[0]?.id });
  });

  it('accepts a message without role (user is the default) and with images', async () => {
    const { id } = await createConversation(base);
    const reply = await call(base, eventsPath(id), {
      method: 'POST',
      json: { content: [{ text: 'look' }, { type: 'image', image_urls: ['data:image/png;base64,AAAA'] }] },
    });
    expect(reply.status, reply.text).toBe(200);
    const [event] = await allEvents(base, id);
    expect(event).toMatchObject({
      llm_message: {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image', image_urls: ['data:image/png;base64,AAAA'] },
        ],
      },
    });
  });

  it('starts a run with run: true', async () => {
    const { id } = await createConversation(base);
    await sendMessage(base, id, 'go', { run: true });
    await eventually(async () => (await allEvents(base, id)).length === 4);
    const events = await allEvents(base, id);
    expect(events.map((e) => [e.kind, e.source, e.value ?? null])).toEqual([
      ['MessageEvent', 'user', null],
      ['ConversationStateUpdateEvent', 'environment', 'running'],
      ['MessageEvent', 'agent', null],
      ['ConversationStateUpdateEvent', 'environment', 'idle'],
    ]);
  });

  it('reopens a finished conversation', async () => {
    const { id } = await createConversation(base);
    await server.server.service.get(id)?.setStatus('finished');
    await sendMessage(base, id, 'one more thing');
    const info = await call<ConversationInfoBody>(base, `/api/conversations/${id}`);
    expect(info.body.execution_status).toBe('idle');
  });

  it('answers 422 for empty content, another role, an unknown property, and no content', async () => {
    const { id } = await createConversation(base);
    const cases: [unknown, unknown[], string][] = [
      [{ role: 'user', content: [] }, ['body', 'content'], 'too_short'],
      [{ role: 'assistant', content: [{ type: 'text', text: 'x' }] }, ['body', 'role'], 'enum'],
      [{ role: 'system', content: [{ type: 'text', text: 'x' }] }, ['body', 'role'], 'enum'],
      [{ role: 'user', content: [{ type: 'text', text: 'x' }], urgent: true }, ['body', 'urgent'], 'extra_forbidden'],
      [{ role: 'user' }, ['body', 'content'], 'missing'],
      [{ content: [{ type: 'text', text: 'x' }], run: 'yes' }, ['body', 'run'], 'bool_type'],
    ];
    for (const [json, loc, type] of cases) {
      const reply = await call(base, eventsPath(id), { method: 'POST', json });
      expect(reply.status, JSON.stringify(json)).toBe(422);
      expect(reply.body, JSON.stringify(json)).toMatchObject({ detail: [{ loc, type }] });
    }
    const notJson = await call(base, eventsPath(id), {
      method: 'POST',
      raw: '{"content":',
      headers: { 'content-type': 'application/json' },
    });
    expect(notJson.status).toBe(422);
    expect(notJson.body).toMatchObject({ detail: [{ loc: ['body'], type: 'json_invalid' }] });
    expect(await allEvents(base, id)).toEqual([]);
  });

  it('answers 404 for an unknown conversation and 422 for a non-UUID one', async () => {
    const json = { role: 'user', content: [{ type: 'text', text: 'x' }] };
    const unknown = await call<{ detail: unknown }>(base, eventsPath(randomUUID()), { method: 'POST', json });
    expect(unknown.status).toBe(404);
    expect(typeof unknown.body.detail).toBe('string');
    const bad = await call(base, eventsPath('abc'), { method: 'POST', json });
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ detail: [{ loc: ['path', 'conversation_id'] }] });
  });
});

describe('batch get: GET /events with a JSON body, and POST /events/batch', () => {
  const batchGet = (id: string, body: string | undefined) =>
    getWithBody<(EventBody | null)[]>(base, eventsPath(id), body);
  const batchPost = (id: string, json: unknown) =>
    call<(EventBody | null)[]>(base, eventsPath(id, '/batch'), { method: 'POST', json });

  it('returns the events in the order asked, null for unknown ids, on both routes', async () => {
    const { id, events } = await seeded();
    const other = await createConversation(base);
    await sendMessage(base, other.id, 'elsewhere');
    const [foreign] = await allEvents(base, other.id);
    const asked = [events[4]?.id, randomUUID(), events[0]?.id, 'not-even-a-uuid', events[4]?.id, foreign?.id];
    const expected = [events[4], null, events[0], null, events[4], null];

    const viaGet = await batchGet(id, JSON.stringify(asked));
    expect(viaGet.status, viaGet.text).toBe(200);
    expect(viaGet.body).toEqual(expected);
    const viaPost = await batchPost(id, asked);
    expect(viaPost.status).toBe(200);
    expect(viaPost.body).toEqual(expected);

    const every = await batchPost(id, ids(events).reverse());
    expect(every.body).toEqual([...events].reverse());
    expect((await batchPost(id, [])).body).toEqual([]);
    expect((await batchGet(id, '[]')).body).toEqual([]);
  });

  it('accepts 1000 ids and answers 422 for more', async () => {
    const { id } = await createConversation(base);
    const many = Array.from({ length: 1001 }, () => randomUUID());
    const thousand = await batchPost(id, many.slice(0, 1000));
    expect(thousand.status).toBe(200);
    expect(thousand.body).toHaveLength(1000);
    for (const reply of [await batchPost(id, many), await batchGet(id, JSON.stringify(many))]) {
      expect(reply.status).toBe(422);
      expect(reply.body).toMatchObject({ detail: [{ loc: ['body'], type: 'too_long' }] });
    }
  });

  it('answers 422 when the body is not an array of strings', async () => {
    const { id } = await createConversation(base);
    for (const send of [
      (json: unknown) => batchGet(id, JSON.stringify(json)),
      (json: unknown) => batchPost(id, json),
    ]) {
      const item = await send([randomUUID(), 7]);
      expect(item.status).toBe(422);
      expect(item.body).toEqual({ detail: [{ loc: ['body', 1], msg: expect.any(String), type: 'string_type' }] });
      const object = await send({ ids: [randomUUID()] });
      expect(object.status).toBe(422);
      expect(object.body).toMatchObject({ detail: [{ loc: ['body'], type: 'list_type' }] });
      const string = await send(randomUUID());
      expect(string.status).toBe(422);
      expect(string.body).toMatchObject({ detail: [{ loc: ['body'] }] });
    }
  });

  it('answers 422 for invalid JSON and for a missing body', async () => {
    const { id } = await createConversation(base);
    const badGet = await batchGet(id, '["a",');
    expect(badGet.status).toBe(422);
    expect(badGet.body).toMatchObject({ detail: [{ loc: ['body'], type: 'json_invalid' }] });
    const badPost = await call(base, eventsPath(id, '/batch'), {
      method: 'POST',
      raw: '["a",',
      headers: { 'content-type': 'application/json' },
    });
    expect(badPost.status).toBe(422);
    expect(badPost.body).toMatchObject({ detail: [{ loc: ['body'], type: 'json_invalid' }] });

    const noBodyGet = await batchGet(id, undefined);
    expect(noBodyGet.status).toBe(422);
    expect(noBodyGet.body).toMatchObject({ detail: [{ loc: ['body'] }] });
    const emptyGet = await batchGet(id, '');
    expect(emptyGet.status).toBe(422);
    expect(emptyGet.body).toMatchObject({ detail: [{ loc: ['body'] }] });
    const noBodyPost = await call(base, eventsPath(id, '/batch'), { method: 'POST' });
    expect(noBodyPost.status).toBe(422);
    expect(noBodyPost.body).toMatchObject({ detail: [{ loc: ['body'] }] });
  });

  it('answers 404 for an unknown conversation', async () => {
    const unknown = randomUUID();
    expect((await batchGet(unknown, '[]')).status).toBe(404);
    expect((await batchPost(unknown, [])).status).toBe(404);
  });
});

describe('GET /events/search', () => {
  it('lists the whole log in order, with next_page_id null at the end', async () => {
    const { id, events } = await seeded();
    const reply = await search(id, '');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ items: events, next_page_id: null });
    const ascending = await search(id, 'sort_order=TIMESTAMP');
    expect(ascending.body.items).toEqual(events);
  });

  it('filters by kind: short name, fully qualified dotted name, unknown kind', async () => {
    const { id, events } = await seeded();
    const messages = events.filter((e) => e.kind === 'MessageEvent');
    expect(messages).toHaveLength(5);
    expect((await search(id, 'kind=MessageEvent')).body.items).toEqual(messages);
    expect((await search(id, `kind=${MESSAGE_FQN}`)).body.items).toEqual(messages);
    expect((await search(id, 'kind=PauseEvent')).body.items).toEqual(events.filter((e) => e.kind === 'PauseEvent'));
    expect(
      (await search(id, 'kind=openhands.sdk.event.conversation_state.ConversationStateUpdateEvent')).body.items,
    ).toEqual(events.filter((e) => e.kind === 'ConversationStateUpdateEvent'));
    expect((await search(id, 'kind=ActionEvent')).body).toEqual({ items: [], next_page_id: null });
    expect((await search(id, 'kind=NoSuchEvent')).body).toEqual({ items: [], next_page_id: null });
  });

  it('filters by source, and answers 422 for an unknown source', async () => {
    const { id, events } = await seeded();
    for (const source of ['user', 'agent', 'environment']) {
      const reply = await search(id, `source=${source}`);
      expect(reply.status).toBe(200);
      expect(reply.body.items).toEqual(events.filter((e) => e.source === source));
    }
    const combined = await search(id, 'source=user&kind=MessageEvent');
    expect(combined.body.items).toEqual(events.filter((e) => e.source === 'user' && e.kind === 'MessageEvent'));
    await expectQueryRejected(id, '/search?source=martians', 'source');
  });

  it('filters by body: a case-insensitive substring of message text and reasoning', async () => {
    const { id, events } = await seeded();
    const byBody = async (body: string) => ids((await search(id, `body=${encodeURIComponent(body)}`)).body.items);
    expect(await byBody('hello world')).toEqual([events[0]?.id]);
    expect(await byBody('HELLO')).toEqual([events[0]?.id]);
    expect(await byBody('apples')).toEqual([events[2]?.id, events[4]?.id]);
    expect(await byBody('bAnAnAs')).toEqual([events[4]?.id]);
    expect(await byBody('message')).toEqual([events[1]?.id]);
    expect(await byBody('o')).toEqual(ids(events.filter((e) => e.kind === 'MessageEvent')));
    // State updates and pauses have no text: they never match, even on their field values.
    expect(await byBody('paused')).toEqual([]);
    expect(await byBody('running')).toEqual([]);
    expect(await byBody('no such text')).toEqual([]);
    // Characters SQL gives meaning to are plain text.
    expect(await byBody('%')).toEqual([]);
    expect(await byBody('_')).toEqual([]);
  });

  it('filters by timestamp__gte (inclusive) and timestamp__lt (exclusive), in any zone', async () => {
    const { id, events } = await seeded();
    const pivot = events[4]?.timestamp as string;
    const end = events[7]?.timestamp as string;
    const byTime = async (query: string) => {
      const reply = await search(id, query);
      expect(reply.status, reply.text).toBe(200);
      return ids(reply.body.items);
    };
    const expectedGte = ids(events.filter((e) => e.timestamp >= pivot));
    expect(expectedGte.length).toBeGreaterThan(0);
    expect(expectedGte.length).toBeLessThan(events.length);
    expect(await byTime(`timestamp__gte=${pivot}`)).toEqual(expectedGte);
    expect(await byTime(`timestamp__lt=${pivot}`)).toEqual(ids(events.filter((e) => e.timestamp < pivot)));
    expect(await byTime(`timestamp__gte=${pivot}&timestamp__lt=${end}`)).toEqual(
      ids(events.filter((e) => e.timestamp >= pivot && e.timestamp < end)),
    );
    // The same instant written with an offset, and without a zone (read as UTC).
    const date = new Date(pivot);
    const shifted = new Date(date.getTime() + 2 * 3600_000).toISOString().replace('Z', '+02:00');
    expect(await byTime(`timestamp__gte=${encodeURIComponent(shifted)}`)).toEqual(expectedGte);
    expect(await byTime(`timestamp__gte=${pivot.replace('Z', '')}`)).toEqual(expectedGte);
    // Far past and future.
    expect(await byTime('timestamp__gte=2000-01-01T00:00:00Z')).toEqual(ids(events));
    expect(await byTime('timestamp__lt=2000-01-01T00:00:00Z')).toEqual([]);

    await expectQueryRejected(id, '/search?timestamp__gte=yesterday', 'timestamp__gte');
    await expectQueryRejected(id, '/search?timestamp__lt=2024-13-45T99:00:00Z', 'timestamp__lt');
  });

  it('sorts newest first with TIMESTAMP_DESC, and answers 422 for an unknown sort order', async () => {
    const { id, events } = await seeded();
    const desc = await search(id, 'sort_order=TIMESTAMP_DESC');
    expect(desc.status).toBe(200);
    expect(desc.body.items).toEqual([...events].reverse());
    const page = await search(id, 'sort_order=TIMESTAMP_DESC&limit=3');
    expect(ids(page.body.items)).toEqual(ids([...events].reverse().slice(0, 3)));
    expect(page.body.next_page_id).toBe(events[events.length - 4]?.id);
    const next = await search(id, `sort_order=TIMESTAMP_DESC&limit=3&page_id=${page.body.next_page_id}`);
    expect(ids(next.body.items)).toEqual(ids([...events].reverse().slice(3, 6)));
    const filtered = await search(id, 'sort_order=TIMESTAMP_DESC&kind=MessageEvent');
    expect(filtered.body.items).toEqual(events.filter((e) => e.kind === 'MessageEvent').reverse());
    await expectQueryRejected(id, '/search?sort_order=NEWEST', 'sort_order');
  });

  it('pages with page_id: next_page_id is the id of the first item of the next page', async () => {
    const { id, events } = await seeded();
    const first = await search(id, 'limit=4');
    expect(first.body.items).toEqual(events.slice(0, 4));
    expect(first.body.next_page_id).toBe(events[4]?.id);
    const second = await search(id, `limit=4&page_id=${first.body.next_page_id}`);
    expect(second.body.items).toEqual(events.slice(4, 8));
    expect(second.body.next_page_id).toBe(events[8]?.id);
    const third = await search(id, `limit=4&page_id=${second.body.next_page_id}`);
    expect(third.body).toEqual({ items: events.slice(8), next_page_id: null });
    // An exact fit ends without a next page.
    expect((await search(id, `limit=${events.length}`)).body.next_page_id).toBeNull();

    // Paging a filtered search walks the matching events only.
    const messages = events.filter((e) => e.kind === 'MessageEvent');
    const collected: EventBody[] = [];
    let pageId: string | null = null;
    do {
      const reply: { body: Page<EventBody> } = await search(
        id,
        `kind=MessageEvent&limit=2${pageId ? `&page_id=${pageId}` : ''}`,
      );
      collected.push(...reply.body.items);
      pageId = reply.body.next_page_id;
      if (pageId) expect(messages.map((e) => e.id)).toContain(pageId);
    } while (pageId);
    expect(collected).toEqual(messages);
  });

  it('answers 422 for an unknown page_id, including one of another conversation', async () => {
    const { id, foreignId } = await conversationAndForeignEvent();
    for (const pageId of [randomUUID(), 'garbage', foreignId]) {
      await expectQueryRejected(id, `/search?page_id=${pageId}`, 'page_id');
    }
  });

  it('resumes after after_event_id (exclusive), with paging and filters', async () => {
    const { id, events } = await seeded();
    const after = await search(id, `after_event_id=${events[2]?.id}`);
    expect(after.status).toBe(200);
    expect(after.body).toEqual({ items: events.slice(3), next_page_id: null });
    const last = await search(id, `after_event_id=${events[events.length - 1]?.id}`);
    expect(last.body).toEqual({ items: [], next_page_id: null });
    const limited = await search(id, `after_event_id=${events[0]?.id}&limit=3`);
    expect(limited.body.items).toEqual(events.slice(1, 4));
    expect(limited.body.next_page_id).toBe(events[4]?.id);
    const filtered = await search(id, `after_event_id=${events[1]?.id}&kind=MessageEvent`);
    expect(ids(filtered.body.items)).toEqual(ids(events.slice(2).filter((e) => e.kind === 'MessageEvent')));
    await expectQueryRejected(id, `/search?after_event_id=${randomUUID()}`, 'after_event_id');
  });

  it('bounds limit to 1..100, defaulting to 100', async () => {
    const { id } = await createConversation(base);
    await Promise.all(Array.from({ length: 105 }, (_, i) => sendMessage(base, id, `message ${i}`)));
    const events = await allEvents(base, id);
    expect(events).toHaveLength(105);
    const byDefault = await search(id, '');
    expect(byDefault.body.items).toEqual(events.slice(0, 100));
    expect(byDefault.body.next_page_id).toBe(events[100]?.id);
    const hundred = await search(id, 'limit=100');
    expect(hundred.body.items).toHaveLength(100);
    const one = await search(id, 'limit=1');
    expect(one.body).toEqual({ items: [events[0]], next_page_id: events[1]?.id });
    for (const limit of ['0', '101', '-5', '1.5', 'ten'])
      await expectQueryRejected(id, `/search?limit=${limit}`, 'limit');
  });

  it('answers 404 for an unknown conversation and 422 for a non-UUID one', async () => {
    expect((await search(randomUUID(), '')).status).toBe(404);
    const bad = await call(base, '/api/conversations/xyz/events/search');
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ detail: [{ loc: ['path', 'conversation_id'] }] });
  });
});

describe('GET /events/count', () => {
  it('counts the log, with the same filters as search', async () => {
    const { id, events } = await seeded();
    const count = async (query = '') => {
      const reply = await call<number>(base, eventsPath(id, `/count${query ? `?${query}` : ''}`));
      expect(reply.status, reply.text).toBe(200);
      return reply.body;
    };
    expect(await count()).toBe(events.length);
    expect(await count('kind=MessageEvent')).toBe(5);
    expect(await count(`kind=${MESSAGE_FQN}`)).toBe(5);
    expect(await count('source=environment')).toBe(3);
    expect(await count('source=user&kind=MessageEvent')).toBe(4);
    expect(await count('body=APPLES')).toBe(2);
    const pivot = events[4]?.timestamp as string;
    expect(await count(`timestamp__gte=${pivot}`)).toBe(events.filter((e) => e.timestamp >= pivot).length);
    expect(await count(`timestamp__lt=${pivot}`)).toBe(events.filter((e) => e.timestamp < pivot).length);
    expect(await count('kind=Nothing')).toBe(0);
  });

  it('answers 0 for an empty log, 404 for an unknown conversation, 422 for bad filters', async () => {
    const { id } = await createConversation(base);
    const empty = await call(base, eventsPath(id, '/count'));
    expect(empty.status).toBe(200);
    expect(empty.text).toBe('0');
    expect((await call(base, eventsPath(randomUUID(), '/count'))).status).toBe(404);
    await expectQueryRejected(id, '/count?source=nobody', 'source');
    const badTime = await call(base, eventsPath(id, '/count?timestamp__gte=soon'));
    expect(badTime.status).toBe(422);
  });
});

describe('GET /events/{event_id}', () => {
  it('returns the event, exactly as search does', async () => {
    const { id, events } = await seeded();
    for (const event of events) {
      const reply = await call<EventBody>(base, eventsPath(id, `/${event.id}`));
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual(event);
    }
  });

  it('answers 404 (never a 500) for an unknown event id, of any shape', async () => {
    const { id, foreignId } = await conversationAndForeignEvent();
    for (const eventId of [randomUUID(), 'not-a-uuid', '12345', foreignId, "'; DROP TABLE events; --"]) {
      const reply = await call<{ detail: unknown }>(base, eventsPath(id, `/${encodeURIComponent(eventId)}`));
      expect(reply.status, eventId).toBe(404);
      expect(typeof reply.body.detail).toBe('string');
    }
    // The log is intact.
    expect(await allEvents(base, id)).toHaveLength(1);
  });

  it('answers 404 for an unknown conversation and 422 for a non-UUID one', async () => {
    expect((await call(base, eventsPath(randomUUID(), `/${randomUUID()}`))).status).toBe(404);
    const bad = await call(base, `/api/conversations/nope/events/${randomUUID()}`);
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ detail: [{ loc: ['path', 'conversation_id'] }] });
  });
});
