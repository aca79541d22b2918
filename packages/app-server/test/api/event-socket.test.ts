import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppServerClient, BosunSocketError, followConversationEvents } from '@bosun/client';
import type { StoredEvent } from '@bosun/protocol';
import { beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ConversationEvents, validateEvents } from '../../src/events/index.ts';
import { eventSocket } from '../../src/events/routes/events-api.ts';
import { buildAppServer } from '../../src/index.ts';
import { errorEvent, newConversation, pauseEvent } from '../events/support.ts';
import { type Api, type TestUser, describeApi } from './harness.ts';

/** Stores `events` as a webhook does (persisted, then published). */
async function store(api: Api, conversationId: string, userId: string, events: object[]): Promise<void> {
  const checked = validateEvents(events, ['body']);
  if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
  await api.events.intake.receive({ id: conversationId, userId }, undefined, checked.events);
}

/** Takes `count` events from `events`, then stops following. */
async function take(events: AsyncGenerator<StoredEvent>, count: number, abort: AbortController): Promise<string[]> {
  const seen: string[] = [];
  for await (const event of events) {
    seen.push(event.id);
    if (seen.length === count) break;
  }
  abort.abort();
  return seen;
}

/** How a raw socket ends: its first frame (if any) and its close code. */
function outcome(url: string, init?: (socket: WebSocket) => void): Promise<{ first?: string; code: number }> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url);
    let first: string | undefined;
    socket.on('open', () => init?.(socket));
    socket.on('message', (data) => {
      first ??= data.toString();
    });
    socket.on('close', (code) => resolve({ ...(first === undefined ? {} : { first }), code }));
    socket.on('error', () => {});
  });
}

describeApi('the live event socket', (api) => {
  let alice: TestUser;
  let bob: TestUser;
  let client: AppServerClient;
  const socketUrl = (id: string, query = '') => `${api().url.replace(/^http/, 'ws')}/sockets/events/${id}${query}`;
  beforeAll(async () => {
    [alice, bob] = await api().users(2);
    client = new AppServerClient({ baseUrl: api().url, apiKey: alice.key });
  });

  it('replays the stored events, then relays new ones live; resumes after an id with no gap or duplicate', async () => {
    const conversation = await newConversation(api(), alice.id, null);
    const stored = [pauseEvent(1), errorEvent(2, 'b'), pauseEvent(3)];
    await store(api(), conversation, alice.id, stored);
    const abort = new AbortController();
    const snapshots: unknown[] = [];
    const events = followConversationEvents(client, conversation, {
      fromStart: true,
      signal: abort.signal,
      onSnapshot: (info) => snapshots.push(info),
    });
    const live = [errorEvent(4, 'd'), pauseEvent(5)];
    const replayed = take(events, 5, abort);
    // Stored while the socket replays or follows: each comes once, in order.
    await store(api(), conversation, alice.id, live);
    expect(await replayed).toEqual([...stored, ...live].map((event) => event.id));
    expect(snapshots[0]).toMatchObject({ id: conversation, event_count: expect.any(Number) });

    const resumed = new AbortController();
    const after = take(
      followConversationEvents(client, conversation.replaceAll('-', ''), {
        afterEventId: stored[1]?.id as string,
        signal: resumed.signal,
      }),
      4,
      resumed,
    );
    const last = pauseEvent(6);
    await store(api(), conversation, alice.id, [last]);
    expect(await after).toEqual([stored[2], ...live, last].map((event) => event?.id));
  });

  it('from now on: only new events, after a snapshot counting the stored ones', async () => {
    const conversation = await newConversation(api(), alice.id, null);
    await store(api(), conversation, alice.id, [pauseEvent(1), pauseEvent(2)]);
    const abort = new AbortController();
    let snapshot: { event_count?: number } | undefined;
    let ready: () => void = () => {};
    const connected = new Promise<void>((resolve) => {
      ready = resolve;
    });
    const events = followConversationEvents(client, conversation, {
      signal: abort.signal,
      onSnapshot: (info) => {
        snapshot = info;
        ready();
      },
    });
    const next = take(events, 1, abort);
    await connected;
    const fresh = errorEvent(3, 'new');
    await store(api(), conversation, alice.id, [fresh]);
    expect(await next).toEqual([fresh.id]);
    expect(snapshot?.event_count).toBe(2);
  });

  it('fills a gap in what was published from the store', async () => {
    const conversation = await newConversation(api(), alice.id, null);
    const abort = new AbortController();
    let ready: () => void = () => {};
    const connected = new Promise<void>((resolve) => {
      ready = resolve;
    });
    const events = followConversationEvents(client, conversation, { signal: abort.signal, onSnapshot: () => ready() });
    const seen = take(events, 3, abort);
    await connected;
    const [quiet, a, b] = [pauseEvent(1), pauseEvent(2), pauseEvent(3)];
    // Stored without a message (as when a publish is lost), then two more with one.
    const checked = validateEvents([quiet], ['body']);
    if (!checked.ok) throw new Error('invalid');
    await api().repositories.events.append(conversation, alice.id, checked.events);
    await store(api(), conversation, alice.id, [a, b]);
    expect(await seen).toEqual([quiet.id, a.id, b.id]);
  });

  it('relays on every replica: events stored by one reach the sockets of another', async () => {
    const { repositories, sandboxes } = api();
    const log = { warn: () => {} };
    const events = new ConversationEvents({
      repositories,
      sandboxes,
      cache: await api().replicaCache(),
      log,
      sweepIntervalMs: 0,
    });
    const identity = { apiKeys: repositories.apiKeys, sessions: repositories.sessions };
    const replica = await buildAppServer({
      config: { log_level: 'silent' },
      apiRoutes: [],
      socketRoutes: [eventSocket({ identity, conversations: repositories.conversations, sandboxes, events })],
    });
    try {
      await replica.app.listen({ host: '127.0.0.1', port: 0 });
      const url = `http://127.0.0.1:${(replica.app.server.address() as AddressInfo).port}`;
      const conversation = await newConversation(api(), alice.id, null);
      const abort = new AbortController();
      let ready: () => void = () => {};
      const connected = new Promise<void>((resolve) => {
        ready = resolve;
      });
      const onReplica = followConversationEvents(
        new AppServerClient({ baseUrl: url, apiKey: alice.key }),
        conversation,
        {
          signal: abort.signal,
          onSnapshot: () => ready(),
        },
      );
      const seen = take(onReplica, 2, abort);
      await connected;
      const stored = [pauseEvent(1), errorEvent(2, 'elsewhere')];
      await store(api(), conversation, alice.id, stored);
      expect(await seen).toEqual(stored.map((event) => event.id));
    } finally {
      await events.close();
      await replica.close();
    }
  });

  it('answers a handshake it refuses in JSON', async () => {
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const refused = request(`${api().url}/sockets/events/${randomUUID()}`, {
        headers: { Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13' },
      });
      refused.on('response', (response) => {
        let body = '';
        response.on('data', (chunk) => {
          body += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      });
      refused.on('error', reject);
      refused.end();
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({ detail: expect.stringContaining('WebSocket handshake refused') });
  });

  it('authenticates like the API and closes as the agent server does: 4001, 4004, 4022', async () => {
    const conversation = await newConversation(api(), alice.id, null);
    const event = pauseEvent(1);
    await store(api(), conversation, alice.id, [event]);
    expect((await outcome(socketUrl(conversation, '?api_key=sk-bosun-wrong'))).code).toBe(4001);
    expect((await outcome(socketUrl(conversation, `?session_api_key=${bob.key}`))).code).toBe(4004);
    expect((await outcome(socketUrl(randomUUID(), `?api_key=${alice.key}`))).code).toBe(4004);
    const unknown = await outcome(socketUrl(conversation, `?session_api_key=${alice.key}&after_event_id=nope`));
    expect(unknown.code).toBe(4022);
    expect(JSON.parse(unknown.first as string)).toMatchObject({ kind: 'ConversationErrorEvent', code: 'UnknownEvent' });
    // A first frame with the key, for clients that put it nowhere else.
    const framed = await outcome(socketUrl(conversation, '?resend_mode=all'), (socket) => {
      socket.send(JSON.stringify({ type: 'auth', session_api_key: alice.key }));
      socket.once('message', () => socket.once('message', () => socket.close(1000)));
    });
    expect(framed.code).toBe(1000);
    expect(JSON.parse(framed.first as string)).toMatchObject({
      kind: 'ConversationStateUpdateEvent',
      key: 'full_state',
    });
    const asBob = new AppServerClient({ baseUrl: api().url, apiKey: bob.key });
    const notFound = await followConversationEvents(asBob, conversation, { fromStart: true })
      .next()
      .catch((error: unknown) => error);
    expect(notFound).toBeInstanceOf(BosunSocketError);
    expect((notFound as BosunSocketError).code).toBe(4004);
    expect(api().logs.join('\n')).not.toContain(alice.key);
  });
});
