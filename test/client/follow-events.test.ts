import { idleRunner } from '@bosun/agent-server';
import { type AgentServerClient, BosunSocketError } from '@bosun/client';
import type { StoredEvent } from '@bosun/protocol';
import { describe, expect, it } from 'vitest';
import { type ClientStack, startAgentServer, userMessage } from './support.ts';

/** A conversation whose runs do nothing: each message sent appends one event. */
async function idleConversation(stack: ClientStack, messages = 0): Promise<string> {
  const info = await stack.client.post('/api/conversations', {
    body: {
      agent: { llm: { model: 'm' } },
      workspace: { working_dir: stack.workspace },
    },
  });
  for (let i = 0; i < messages; i++)
    await stack.client.post('/api/conversations/{conversation_id}/events', {
      params: { conversation_id: info.id },
      body: userMessage(`old ${i}`),
    });
  return info.id;
}

const textOf = (event: StoredEvent) =>
  event.kind === 'MessageEvent'
    ? event.llm_message.content.map((c) => (c.type === 'text' ? c.text : '')).join('')
    : undefined;

async function storedIds(client: AgentServerClient, id: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const event of client.iterateEvents(id)) ids.push(event.id);
  return ids;
}

/** Resolves once `check` holds, polling the state it reads; fails after 10 s. */
async function until(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not reached in 10 s');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const FAST = { initialDelayMs: 5, maxDelayMs: 50 };

describe('followEvents', () => {
  it('resumes after the last event it delivered when the server drops the socket mid-stream: each event once, in order', async () => {
    const stack = await startAgentServer({ runner: idleRunner });
    const id = await idleConversation(stack, 3);
    const total = 300;
    let reconnections = 0;
    const stream = stack.client.followEvents(id, {
      fromStart: true,
      reconnect: FAST,
      onReconnect: () => {
        reconnections += 1;
      },
    });
    const producer = (async () => {
      for (let i = 0; i < total; i++)
        await stack.client.post('/api/conversations/{conversation_id}/events', {
          params: { conversation_id: id },
          body: userMessage(`new ${i}`),
        });
    })();
    const seen: StoredEvent[] = [];
    let drops = 0;
    for await (const event of stream) {
      seen.push(event);
      // Kill the connection every 40 events, while the producer keeps appending.
      if (seen.length % 40 === 0) drops += stack.dropSockets();
      if (textOf(event) === `new ${total - 1}`) break;
    }
    await producer;
    expect(drops).toBeGreaterThanOrEqual(7);
    expect(reconnections).toBeGreaterThanOrEqual(drops);
    const ids = seen.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(await storedIds(stack.client, id));
    expect(seen.map(textOf)).toEqual([
      ...[0, 1, 2].map((i) => `old ${i}`),
      ...[...Array(total).keys()].map((i) => `new ${i}`),
    ]);
  });

  it('resumes across a restart of the server process', async () => {
    const stack = await startAgentServer({ runner: idleRunner });
    const id = await idleConversation(stack);
    const stream = stack.client.followEvents(id, { fromStart: true, reconnect: FAST });
    const seen: StoredEvent[] = [];
    const read = async (count: number) => {
      while (seen.length < count) {
        const next = await stream.next();
        if (next.done) throw new Error('the stream ended');
        seen.push(next.value);
      }
    };
    for (let i = 0; i < 20; i++)
      await stack.client.post('/api/conversations/{conversation_id}/events', {
        params: { conversation_id: id },
        body: userMessage(`before ${i}`),
      });
    await read(20);
    await stack.restart();
    for (let i = 0; i < 20; i++)
      await stack.client.post('/api/conversations/{conversation_id}/events', {
        params: { conversation_id: id },
        body: userMessage(`after ${i}`),
      });
    await read(40);
    await stream.return(undefined);
    expect(seen.map((e) => e.id)).toEqual(await storedIds(stack.client, id));
    expect(seen.map(textOf).slice(18, 22)).toEqual(['before 18', 'before 19', 'after 0', 'after 1']);
  });

  it('from now: delivers only new events, also when a drop comes before the first one', async () => {
    const stack = await startAgentServer({ runner: idleRunner });
    const id = await idleConversation(stack, 5);
    let snapshots = 0;
    const follow = () =>
      stack.client.followEvents(id, {
        reconnect: FAST,
        onSnapshot: () => {
          snapshots += 1;
        },
      });
    const live = follow();
    const first = live.next();
    await until(() => snapshots === 1);
    await stack.client.post('/api/conversations/{conversation_id}/events', {
      params: { conversation_id: id },
      body: userMessage('new 0'),
    });
    expect(textOf((await first).value as StoredEvent)).toBe('new 0');
    await live.return(undefined);
    await until(() => stack.server.app.websocketServer.clients.size === 0);

    const dropped = follow();
    const next = dropped.next();
    await until(() => snapshots === 2);
    expect(stack.dropSockets()).toBe(1);
    await stack.client.post('/api/conversations/{conversation_id}/events', {
      params: { conversation_id: id },
      body: userMessage('new 1'),
    });
    await until(() => snapshots === 3);
    await stack.client.post('/api/conversations/{conversation_id}/events', {
      params: { conversation_id: id },
      body: userMessage('new 2'),
    });
    const second = await dropped.next();
    expect([textOf((await next).value as StoredEvent), textOf(second.value as StoredEvent)]).toEqual([
      'new 1',
      'new 2',
    ]);
    await dropped.return(undefined);
  });

  it('starts after afterEventId, and refuses an event id the conversation does not have', async () => {
    const stack = await startAgentServer({ runner: idleRunner });
    const id = await idleConversation(stack, 5);
    const ids = await storedIds(stack.client, id);
    const seen: string[] = [];
    for await (const event of stack.client.followEvents(id, { afterEventId: ids[2] as string })) {
      seen.push(event.id);
      if (seen.length === 2) break;
    }
    expect(seen).toEqual(ids.slice(3));
    const error = await stack.client
      .followEvents(id, { afterEventId: 'no-such-event' })
      .next()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BosunSocketError);
    expect(error).toMatchObject({ code: 4022 });
    expect((error as Error).message).toContain('no-such-event');
  });

  it('stops cleanly on abort: the iterator ends and the connection is closed', async () => {
    const stack = await startAgentServer({ runner: idleRunner });
    const id = await idleConversation(stack, 1);
    const abort = new AbortController();
    const stream = stack.client.followEvents(id, { fromStart: true, signal: abort.signal });
    expect((await stream.next()).done).toBe(false);
    const pending = stream.next();
    await until(() => stack.server.app.websocketServer.clients.size === 1);
    abort.abort();
    expect(await pending).toEqual({ done: true, value: undefined });
    await until(() => stack.server.app.websocketServer.clients.size === 0);
  });

  it('gives up with a BosunSocketError after maxAttempts failed reconnections', async () => {
    const stack = await startAgentServer({ runner: idleRunner });
    const id = await idleConversation(stack, 1);
    const attempts: number[] = [];
    const stream = stack.client.followEvents(id, {
      fromStart: true,
      reconnect: { initialDelayMs: 1, maxDelayMs: 4, maxAttempts: 3 },
      onReconnect: ({ attempt }) => attempts.push(attempt),
    });
    expect((await stream.next()).done).toBe(false);
    await stack.server.close();
    const error = await stream.next().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BosunSocketError);
    expect((error as Error).message).toContain('gave up after 3 attempts');
    expect(attempts).toEqual([1, 2, 3]);
  });
});
