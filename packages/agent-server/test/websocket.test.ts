import { randomUUID } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLOSE_INVALID_REQUEST, CLOSE_NOT_FOUND } from '../src/index.ts';
import {
  type ConversationInfoBody,
  type EventBody,
  SocketClient,
  allEvents,
  call,
  createConversation,
  eventually,
  isFullState,
  sendMessage,
  sleep,
  socketUrl,
} from './support/http.ts';
import { testServerPerFile } from './support/shared-server.ts';

const server = testServerPerFile();
let base: string;
const sockets: SocketClient[] = [];

beforeAll(() => {
  base = server.url;
});
afterEach(async () => {
  await Promise.all(sockets.splice(0).map((s) => s.close()));
});

function connect(id: string, query: Record<string, string> = {}): SocketClient {
  const client = new SocketClient(socketUrl(base, id, query));
  sockets.push(client);
  return client;
}

/** The frames that are events of the log (everything but `full_state` snapshots). */
const logFrames = (frames: EventBody[]) => frames.filter((f) => !isFullState(f));
const ids = (events: EventBody[]) => events.map((e) => e.id);

/** A deterministic pseudo-random generator, so a failing run can be replayed from its seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('the event socket', () => {
  it('sends a full_state snapshot first; it is not part of the log', async () => {
    const info = await createConversation(base, { title: 'Snapshot' });
    await sendMessage(base, info.id, 'before connecting');
    const client = connect(info.id);
    const [first] = await client.until((f) => f.length >= 1);
    expect(first).toMatchObject({
      kind: 'ConversationStateUpdateEvent',
      key: 'full_state',
      source: 'environment',
      value: { id: info.id, title: 'Snapshot', execution_status: 'idle', event_count: 1 },
    });
    expect(first?.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(first?.timestamp).toMatch(/Z$/);
    // Secrets are redacted in the snapshot too.
    expect((first?.value as ConversationInfoBody | undefined)?.agent.llm.api_key).toBe('**********');
    expect(JSON.stringify(first)).not.toContain('sk-test-secret');
    expect((await call(base, `/api/conversations/${info.id}/events/${first?.id}`)).status).toBe(404);
    // Without a resend mode nothing stored is replayed.
    await sleep(100);
    expect(client.frames).toHaveLength(1);
  });

  it('streams events appended over REST, once each, in log order', async () => {
    const { id } = await createConversation(base);
    const client = connect(id);
    await client.until((f) => f.length >= 1);
    await Promise.all(Array.from({ length: 50 }, (_, i) => sendMessage(base, id, `live ${i}`)));
    const log = await allEvents(base, id);
    expect(log).toHaveLength(50);
    await client.until((f) => logFrames(f).length >= 50);
    await sleep(50);
    expect(logFrames(client.frames)).toEqual(log);
  });

  it('with resend_mode=all replays every stored event in order, then streams new ones', async () => {
    const { id } = await createConversation(base);
    for (let i = 0; i < 5; i++) await sendMessage(base, id, `stored ${i}`);
    await call(base, `/api/conversations/${id}/pause`, { method: 'POST' });
    const stored = await allEvents(base, id);
    expect(stored).toHaveLength(7);
    const client = connect(id, { resend_mode: 'all' });
    const frames = await client.until((f) => f.length >= 1 + stored.length);
    expect(frames[0] && isFullState(frames[0])).toBe(true);
    expect(frames.slice(1)).toEqual(stored);
    await sendMessage(base, id, 'new one');
    await client.until((f) => f.length >= 2 + stored.length);
    const log = await allEvents(base, id);
    expect(logFrames(client.frames)).toEqual(log);
  });

  it('replays a log longer than one catch-up page', async () => {
    const { id } = await createConversation(base);
    const conversation = server.server.service.get(id);
    for (let batch = 0; batch < 12; batch++) {
      await conversation?.append(
        Array.from({ length: 100 }, (_, i) => ({
          kind: 'PauseEvent' as const,
          source: 'user' as const,
          id: `${String(batch).padStart(2, '0')}-${String(i).padStart(3, '0')}-${randomUUID()}`,
        })),
      );
    }
    const log = await allEvents(base, id);
    expect(log).toHaveLength(1200);
    const all = connect(id, { resend_mode: 'all' });
    const legacy = connect(id, { resend_all: 'true' });
    const after = connect(id, { after_event_id: log[99]?.id as string });
    await all.until((f) => f.length >= 1201, 10_000);
    await legacy.until((f) => f.length >= 1201, 10_000);
    await after.until((f) => f.length >= 1101, 10_000);
    expect(ids(logFrames(all.frames))).toEqual(ids(log));
    expect(ids(logFrames(legacy.frames))).toEqual(ids(log));
    expect(ids(logFrames(after.frames))).toEqual(ids(log.slice(100)));
  });

  it('with after_event_id sends only the events after it (exclusive)', async () => {
    const { id } = await createConversation(base);
    for (let i = 0; i < 6; i++) await sendMessage(base, id, `m${i}`);
    const log = await allEvents(base, id);
    const client = connect(id, { after_event_id: log[2]?.id as string });
    await client.until((f) => f.length >= 4);
    await sleep(50);
    expect(client.frames[0] && isFullState(client.frames[0])).toBe(true);
    expect(logFrames(client.frames)).toEqual(log.slice(3));
    const atEnd = connect(id, { after_event_id: log[5]?.id as string });
    await atEnd.until((f) => f.length >= 1);
    await sleep(50);
    expect(logFrames(atEnd.frames)).toEqual([]);
  });

  it('rejects an unknown after_event_id with a ConversationErrorEvent and close code 4022', async () => {
    const { id } = await createConversation(base);
    const client = connect(id, { after_event_id: randomUUID() });
    const closed = await client.closed;
    expect(closed.code).toBe(CLOSE_INVALID_REQUEST);
    expect(client.frames).toEqual([
      expect.objectContaining({ kind: 'ConversationErrorEvent', code: 'UnknownEvent', source: 'environment' }),
    ]);
  });

  it('appends a user-message frame (visible over REST) and starts a run', async () => {
    const { id } = await createConversation(base);
    const client = connect(id);
    await client.until((f) => f.length >= 1);
    client.send({ role: 'user', content: [{ type: 'text', text: 'hi' }] });
    await client.until((f) => f.some((e) => e.kind === 'ConversationStateUpdateEvent' && e.value === 'idle'));
    const log = await allEvents(base, id);
    expect(log.map((e) => [e.kind, e.source, e.value ?? null])).toEqual([
      ['MessageEvent', 'user', null],
      ['ConversationStateUpdateEvent', 'environment', 'running'],
      ['ConversationStateUpdateEvent', 'environment', 'idle'],
    ]);
    expect(log[0]).toMatchObject({ llm_message: { role: 'user', content: [{ type: 'text', text: 'hi' }] } });
    expect(logFrames(client.frames)).toEqual(log);
    const info = await call<ConversationInfoBody>(base, `/api/conversations/${id}`);
    expect(info.body.last_user_message_id).toBe(log[0]?.id);
  });

  it('answers an invalid frame with a ConversationErrorEvent and stays open', async () => {
    const { id } = await createConversation(base);
    const client = connect(id);
    await client.until((f) => f.length >= 1);
    const invalid = [
      'not json at all',
      JSON.stringify({ role: 'assistant', content: [{ type: 'text', text: 'x' }] }),
      JSON.stringify({ role: 'user', content: [] }),
      JSON.stringify({ role: 'user', content: [{ type: 'text', text: 'x' }], extra: 1 }),
      JSON.stringify([1, 2]),
      '42',
    ];
    for (const [n, frame] of invalid.entries()) {
      client.send(frame);
      const frames = await client.until((f) => f.length >= n + 2);
      expect(frames[n + 1], frame).toMatchObject({
        kind: 'ConversationErrorEvent',
        source: 'environment',
        code: 'ValidationError',
      });
      expect(client.ws.readyState).toBe(client.ws.OPEN);
    }
    const detail = JSON.parse(client.frames[2]?.detail as string) as { detail: { loc: unknown[] }[] };
    expect(detail.detail[0]?.loc).toContain('role');
    // Nothing was appended, and the error frames are not in the log.
    expect(await allEvents(base, id)).toEqual([]);
    // The socket still works.
    client.send({ role: 'user', content: [{ type: 'text', text: 'valid now' }] });
    await client.until((f) => f.some((e) => e.kind === 'MessageEvent'));
    const log = await allEvents(base, id);
    expect(log[0]).toMatchObject({ kind: 'MessageEvent', llm_message: { content: [{ text: 'valid now' }] } });
  });

  it('does not lose a frame sent right after connecting, even while replaying a long log', async () => {
    const { id } = await createConversation(base);
    const conversation = server.server.service.get(id);
    await conversation?.append(
      Array.from({ length: 5000 }, () => ({ kind: 'PauseEvent' as const, source: 'user' as const })),
    );
    const client = connect(id, { resend_mode: 'all' });
    await client.opened;
    client.send({ role: 'user', content: [{ type: 'text', text: 'early bird' }] });
    await client.until((f) => f.some((e) => e.kind === 'MessageEvent'), 10_000);
    await eventually(
      async () => (await call<number>(base, `/api/conversations/${id}/events/count?kind=MessageEvent`)).body === 1,
    );
  });

  it('gives every follower the same events in the same order', async () => {
    const { id } = await createConversation(base);
    const clients = [connect(id), connect(id), connect(id, { resend_mode: 'all' })];
    await Promise.all(clients.map((c) => c.until((f) => f.length >= 1)));
    await Promise.all(
      Array.from({ length: 40 }, (_, i) => sendMessage(base, id, `fan-out ${i}`, { run: i % 5 === 0 })),
    );
    await eventually(async () => {
      const info = await call<ConversationInfoBody>(base, `/api/conversations/${id}`);
      return info.body.execution_status === 'idle' && server.server.service.get(id)?.activeRun === undefined;
    });
    const log = await allEvents(base, id);
    for (const client of clients) {
      await client.until((f) => logFrames(f).length >= log.length);
    }
    await sleep(50);
    for (const client of clients) expect(ids(logFrames(client.frames))).toEqual(ids(log));
  });

  it('closes with 4004 for an unknown conversation or an id that is not a UUID', async () => {
    for (const id of [randomUUID(), 'not-a-uuid']) {
      const client = connect(id);
      const closed = await client.closed;
      expect(closed.code, id).toBe(CLOSE_NOT_FOUND);
      expect(client.frames).toEqual([]);
    }
  });
});

describe('resuming the event socket with after_event_id', () => {
  /**
   * Follows a conversation through many short connections: each one resumes after the last log event received
   * (the first with `resend_mode=all`), lives a random moment and is dropped, abruptly or politely.
   */
  async function reconnectingReader(
    id: string,
    next: () => number,
    writing: () => boolean,
    offline: () => Promise<void>,
  ): Promise<{ received: EventBody[]; connections: number; finish: (lastId: string) => Promise<void> }> {
    const received: EventBody[] = [];
    let connections = 0;
    const lastId = () => received[received.length - 1]?.id;
    const oneConnection = async (lifetimeMs: number | 'until-last', target?: string) => {
      const last = lastId();
      const client = new SocketClient(socketUrl(base, id, last ? { after_event_id: last } : { resend_mode: 'all' }));
      connections++;
      try {
        if (lifetimeMs === 'until-last') {
          // Caught up when the target arrives; a reader that already had it gets the snapshot only.
          await client.until((f) => f.some((e) => e.id === target) || (last === target && f.length > 0), 60_000); // a loaded machine can take seconds per replay
          await sleep(100); // Anything after the last event would be a duplicate.
        } else if (lifetimeMs > 0) {
          await sleep(lifetimeMs);
        }
      } finally {
        await client.close(next() < 0.5);
      }
      for (const frame of client.frames) {
        if (isFullState(frame)) continue;
        received.push(frame);
      }
    };
    while (writing()) {
      const roll = next();
      await oneConnection(roll < 0.15 ? 0 : Math.floor(next() * 40));
      await offline();
    }
    return { received, connections, finish: (target) => oneConnection('until-last', target) };
  }

  it('delivers exactly the log, with no gap and no duplicate, across many random reconnects under concurrent writes', async () => {
    const seed = Date.now() >>> 0;
    const next = random(seed);
    const { id } = await createConversation(base);
    const TOTAL = 1500;
    const WRITERS = 8;
    let written = 0;
    let writersDone = false;
    const writers = Array.from({ length: WRITERS }, async (_, w) => {
      while (written < TOTAL) {
        const n = written++;
        // Some messages start runs, which add state updates from the server's side of the log.
        await sendMessage(base, id, `message ${n} from writer ${w}`, { run: n % 17 === 0 });
        if (next() < 0.1) await sleep(Math.floor(next() * 10));
      }
    });
    const allWritten = Promise.all(writers).then(() => {
      writersDone = true;
    });
    const writing = () => !writersDone;
    // Mostly back at once, sometimes offline for a while.
    const restless = async () => {
      const roll = next();
      if (roll >= 0.6) await sleep(roll < 0.9 ? Math.floor(next() * 20) : 150 + Math.floor(next() * 200));
    };
    // Offline until more than a catch-up page (500 events) behind, then catching up while the writers go on.
    const laggard = async () => {
      const target = written + 700;
      while (written < target && !writersDone) await sleep(5);
    };
    const readers = [
      reconnectingReader(id, next, writing, restless),
      reconnectingReader(id, next, writing, restless),
      reconnectingReader(id, next, writing, restless),
      reconnectingReader(id, next, writing, laggard),
    ];
    const minConnections = [10, 10, 10, 3];
    await allWritten;
    const finished = await Promise.all(readers);

    // Let the last runs end, then read the log over REST.
    await eventually(async () => {
      const info = await call<ConversationInfoBody>(base, `/api/conversations/${id}`);
      return info.body.execution_status === 'idle' && server.server.service.get(id)?.activeRun === undefined;
    }, 10_000);
    const log = await allEvents(base, id);
    expect(log.filter((e) => e.kind === 'MessageEvent')).toHaveLength(TOTAL);
    const lastId = log[log.length - 1]?.id as string;

    for (const [r, reader] of finished.entries()) {
      await reader.finish(lastId);
      const context = `seed ${seed}, reader ${r}, ${reader.connections} connections`;
      expect(reader.connections, context).toBeGreaterThanOrEqual(minConnections[r] as number);
      const receivedIds = ids(reader.received);
      expect(new Set(receivedIds).size, `duplicates; ${context}`).toBe(receivedIds.length);
      expect(receivedIds, context).toEqual(ids(log));
      // Each frame is the event exactly as REST serves it.
      expect(reader.received, context).toEqual(log);
    }
  }, 300_000); // 1,500 writes: seconds on a quiet machine, minutes on a loaded one
});
