import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { LOCAL_SPEC, type Sandbox } from '../../src/sandboxes/index.ts';
import { errorEvent, newConversation, pauseEvent, startOnAgent } from '../events/support.ts';
import { agentEnvironment } from '../sandboxes/processes.ts';
import { type Api, type TestUser, describeApi } from './harness.ts';

const webhook = (api: Api, conversationId: string, key: string | undefined, body: unknown) =>
  api.call(`/api/v1/webhooks/events/${conversationId}`, {
    method: 'POST',
    body,
    headers: key === undefined ? {} : { 'X-Session-API-Key': key },
  });

const ids = (answer: { body: { items: { id: string }[] } }) => answer.body.items.map((item) => item.id);

describeApi('event webhooks and the event store', (api) => {
  let alice: TestUser;
  let bob: TestUser;
  let alices: Sandbox;
  let bobs: Sandbox;
  beforeAll(async () => {
    [alice, bob] = await api().users(2);
    // Real sandboxes: their session keys are what a webhook is authenticated by.
    [alices, bobs] = await Promise.all([
      api().sandboxes.start(LOCAL_SPEC, alice.id),
      api().sandboxes.start(LOCAL_SPEC, bob.id),
    ]);
    expect([alices.status, bobs.status]).toEqual(['RUNNING', 'RUNNING']);
  });
  const keyOf = (sandbox: Sandbox) => sandbox.sessionApiKey as string;
  const count = async (conversationId: string, as: TestUser = alice) =>
    (await api().call(`/api/v1/conversation/${conversationId}/events/count`, { as })).body;

  it('tells every sandbox where to post its events and which origin its browser calls come from', async () => {
    const environment = await agentEnvironment(api().runtime.runtime, alices.id);
    expect(environment.BOSUN_WEBHOOK_BASE_URL).toBe(`${api().url}/api/v1/webhooks`);
    expect(environment.BOSUN_ALLOW_CORS_ORIGINS).toBe(api().url);
  });

  it('is documented as called with a sandbox’s session key, not an API key', async () => {
    const document = (await api().call('/openapi.json')).body;
    expect(document.paths['/api/v1/webhooks/events/{conversation_id}'].post.security).toEqual([
      { SandboxSessionKey: [] },
    ]);
    expect(document.components.securitySchemes.SandboxSessionKey).toMatchObject({ name: 'X-Session-API-Key' });
  });

  it('refuses a call without the key, with a wrong one, or with another user’s sandbox key: nothing stored', async () => {
    const conversation = await newConversation(api(), alice.id, alices.id);
    const batch = [pauseEvent(1)];
    for (const key of [undefined, 'not-a-key', alice.key]) {
      const answer = await webhook(api(), conversation, key, batch);
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ detail: expect.any(String) });
    }
    // Bob's sandbox, writing Alice's conversation: as unknown to it as a conversation that does not exist.
    const asBob = await webhook(api(), conversation, keyOf(bobs), batch);
    expect(asBob.status).toBe(404);
    expect(await count(conversation)).toBe(0);
    // Alice's own sandbox, for a conversation another sandbox of hers holds: refused too.
    const elsewhere = await newConversation(api(), alice.id, 'another-sandbox');
    expect((await webhook(api(), elsewhere, keyOf(alices), batch)).status).toBe(403);
    expect(await count(elsewhere)).toBe(0);
    expect(api().logs.join('\n')).not.toContain(keyOf(bobs));
  });

  it('stores batches in order, once each, and answers once they are stored', async () => {
    const conversation = await newConversation(api(), alice.id, alices.id);
    const [a, b, c, d] = [pauseEvent(1), errorEvent(2, 'second'), pauseEvent(3), errorEvent(4, 'fourth')];
    expect((await webhook(api(), conversation, keyOf(alices), [a, b])).body).toEqual({ success: true });
    // A batch delivered twice, and one that repeats an event already stored (and one twice over).
    expect((await webhook(api(), conversation, keyOf(alices), [a, b])).status).toBe(200);
    expect((await webhook(api(), conversation.replaceAll('-', ''), keyOf(alices), [b, c, c, d])).status).toBe(200);
    const page = await api().call(`/api/v1/conversation/${conversation}/events/search`, { as: alice });
    expect(page.status).toBe(200);
    expect(ids(page)).toEqual([a.id, b.id, c.id, d.id]);
    expect(page.body.items[1]).toEqual(b);
    expect(await count(conversation)).toBe(4);
    const rows = await api().repositories.events.page(alice.id, conversation, { descending: false, limit: 10 });
    expect(rows.map((row) => row.seq)).toEqual([1, 2, 3, 4]);
  });

  // The app refuses U+0000 in what it stores as text (bad-input.test.ts); events hold it as tools printed it.
  it('stores an event whose text holds a NUL character as it was sent', async () => {
    const conversation = await newConversation(api(), alice.id, alices.id);
    const event = errorEvent(1, 'printed a\u0000b');
    expect((await webhook(api(), conversation, keyOf(alices), [event])).status).toBe(200);
    const page = await api().call(`/api/v1/conversation/${conversation}/events/search`, { as: alice });
    expect(page.body.items).toEqual([event]);
    // Its id is a column of its own: there it is refused (no event id holds one).
    const badId = await webhook(api(), conversation, keyOf(alices), [{ ...errorEvent(2, 'x'), id: 'a\u0000b' }]);
    expect(badId.status, badId.text).toBe(422);
    expect(badId.body.detail).toEqual([expect.objectContaining({ loc: ['body', 0, 'id'] })]);
  });

  it('refuses a batch with an invalid event with a 422 naming its index, and stores none of it', async () => {
    const conversation = await newConversation(api(), alice.id, alices.id);
    const bad = await webhook(api(), conversation, keyOf(alices), [pauseEvent(1), { ...errorEvent(2, 'x'), code: 7 }]);
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toEqual([expect.objectContaining({ loc: ['body', 1, 'code'] })]);
    const unknownKind = await webhook(api(), conversation, keyOf(alices), [{ ...pauseEvent(1), kind: 'Nope' }]);
    expect(unknownKind.status).toBe(422);
    expect(unknownKind.body.detail[0].loc.slice(0, 2)).toEqual(['body', 0]);
    const { id: _id, ...withoutId } = pauseEvent(1);
    const noId = await webhook(api(), conversation, keyOf(alices), [pauseEvent(0), withoutId]);
    expect(noId.status).toBe(422);
    expect(noId.body.detail).toEqual([{ loc: ['body', 1, 'id'], msg: 'Field required', type: 'missing' }]);
    expect((await webhook(api(), conversation, keyOf(alices), { not: 'an array' })).status).toBe(422);
    expect((await webhook(api(), 'not-a-uuid', keyOf(alices), [])).status).toBe(422);
    expect(await count(conversation)).toBe(0);
  });

  it('records a conversation the app did not start for the sandbox’s owner, unless its agent server has none', async () => {
    // Its agent server has no such conversation (the app deleted it while this post was in flight): ignored.
    const deleted = randomUUID();
    expect((await webhook(api(), deleted, keyOf(alices), [pauseEvent(1)])).status).toBe(200);
    expect(await api().repositories.conversations.get(alice.id, deleted)).toBeUndefined();
    expect((await api().call(`/api/v1/conversation/${deleted}/events/count`, { as: alice })).status).toBe(404);
    const conversation = await startOnAgent(api(), alices);
    const event = pauseEvent(1);
    expect((await webhook(api(), conversation, keyOf(alices), [event])).status).toBe(200);
    expect(await api().repositories.conversations.get(alice.id, conversation)).toMatchObject({
      user_id: alice.id,
      sandbox_id: alices.id,
    });
    // Kept with what the agent server itself posts of the conversation (its own webhooks).
    const kept = await api().call(`/api/v1/conversation/${conversation}/events?id=${event.id}`, { as: alice });
    expect(kept.body).toEqual([expect.objectContaining({ id: event.id })]);
    expect((await api().call(`/api/v1/conversation/${conversation}/events/count`, { as: bob })).status).toBe(404);
  });

  it('searches, counts, pages and gets by id like the agent server; another user’s conversation is 404', async () => {
    const conversation = await newConversation(api(), alice.id, alices.id);
    // Timestamps out of order: pages follow the conversation's order, never time.
    const events = Array.from({ length: 7 }, (_, index) =>
      index % 2 === 0 ? pauseEvent(100 - index) : errorEvent(100 - index, `e${index}`),
    );
    expect((await webhook(api(), conversation, keyOf(alices), events)).status).toBe(200);
    const all = events.map((event) => event.id);
    const search = (query: string, as = alice) =>
      api().call(`/api/v1/conversation/${conversation}/events/search?${query}`, { as });

    const first = await search('limit=3');
    expect(ids(first)).toEqual(all.slice(0, 3));
    expect(first.body.next_page_id).toBe(all[3]);
    const second = await search(`limit=3&page_id=${first.body.next_page_id}`);
    expect(ids(second)).toEqual(all.slice(3, 6));
    expect(ids(await search(`limit=3&page_id=${second.body.next_page_id}`))).toEqual(all.slice(6));
    expect((await search(`limit=3&page_id=${second.body.next_page_id}`)).body.next_page_id).toBeNull();
    const newest = await search('sort_order=TIMESTAMP_DESC&limit=2');
    expect(ids(newest)).toEqual([all[6], all[5]]);
    expect(ids(await search(`sort_order=TIMESTAMP_DESC&limit=2&page_id=${newest.body.next_page_id}`))).toEqual([
      all[4],
      all[3],
    ]);
    expect(ids(await search(`after_event_id=${all[4]}`))).toEqual(all.slice(5));
    expect(ids(await search(`after_event_id=${all[4]}&sort_order=TIMESTAMP_DESC`))).toEqual(all.slice(0, 4).reverse());
    expect(ids(await search('kind__eq=ConversationErrorEvent'))).toEqual([all[1], all[3], all[5]]);
    expect(ids(await search('kind=openhands.sdk.event.PauseEvent'))).toEqual([all[0], all[2], all[4], all[6]]);
    // Times 94..100: [96, 99) holds the events at 96, 97 and 98.
    const window = `timestamp__gte=2026-01-01T00:01:36Z&timestamp__lt=${encodeURIComponent('2026-01-01T01:01:39+01:00')}`;
    expect(ids(await search(window))).toEqual([all[2], all[3], all[4]]);
    const counted = (query: string) =>
      api().call(`/api/v1/conversation/${conversation}/events/count?${query}`, { as: alice });
    expect((await counted('')).body).toBe(7);
    expect((await counted('kind__eq=PauseEvent')).body).toBe(4);
    expect((await counted(`${window}&source=environment`)).body).toBe(1);

    const batch = await api().call(`/api/v1/conversation/${conversation}/events?id=${all[2]}&id=unknown&id=${all[0]}`, {
      as: alice,
    });
    expect(batch.body).toEqual([events[2], null, events[0]]);

    for (const bad of ['page_id=unknown', 'after_event_id=unknown', 'limit=101', 'limit=0', 'sort_order=NEWEST']) {
      const answer = await search(bad);
      expect(answer.status, bad).toBe(422);
      expect(answer.body.detail[0].loc[0]).toBe('query');
    }
    for (const path of ['events/search', 'events/count', `events?id=${all[0]}`]) {
      const answer = await api().call(`/api/v1/conversation/${conversation}/${path}`, { as: bob });
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ detail: expect.any(String) });
      expect(answer.text).not.toContain(all[0]);
    }
    expect((await api().call(`/api/v1/conversation/${randomUUID()}/events/search`, { as: alice })).status).toBe(404);
  });
});
