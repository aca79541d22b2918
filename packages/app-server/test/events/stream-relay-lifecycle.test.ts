import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { type WebSocket, WebSocketServer } from 'ws';
import type { AppConversation } from '../../src/data/index.ts';
import { StreamRelay } from '../../src/events/index.ts';
import type { Sandbox } from '../../src/sandboxes/index.ts';
import { until } from '../support/until.ts';

/**
 * The relay's lifecycle against a stand-in for a sandbox's agent server (a WebSocket server on loopback speaking
 * the event socket's frames): one upstream socket per conversation, opened for the first listener, closed after
 * the last; only stream frames pass. The whole path through a real sandbox is in stream-relay.test.ts.
 */
let upstream: WebSocketServer | undefined;
afterEach(async () => {
  for (const client of upstream?.clients ?? []) client.terminate();
  await new Promise((resolve) => upstream?.close(resolve));
  upstream = undefined;
});

const frame = (seq: number, text: string) => ({
  type: 'stream',
  conversation_id: 'c',
  stream_id: 's',
  seq,
  delta: { text },
});

it('follows the sandbox while someone listens, relays only stream frames, and stops after the last listener', async () => {
  const connections: { socket: WebSocket; url: string; key: string | undefined }[] = [];
  upstream = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  upstream.on('connection', (socket, request) => {
    connections.push({ socket, url: request.url ?? '', key: request.headers['x-session-api-key'] as string });
    socket.send(JSON.stringify({ kind: 'ConversationStateUpdateEvent', key: 'full_state', value: { event_count: 0 } }));
  });
  await new Promise((resolve) => upstream?.once('listening', resolve));
  const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const conversation = { id: randomUUID(), user_id: 'u', sandbox_id: 'sb' } as AppConversation;
  const sandbox = { id: 'sb', agentServerUrl: url, sessionApiKey: 'session-key' } as Sandbox;
  const relay = new StreamRelay({
    sandboxes: { get: async (_owner, id) => (id === 'sb' ? sandbox : undefined) },
    conversations: { get: async () => conversation },
  });

  const first: string[] = [];
  const second: string[] = [];
  const stopFirst = relay.listen(conversation, (text) => first.push(text));
  const stopSecond = relay.listen(conversation, (text) => second.push(text));
  await until(
    async () => connections.length,
    (count) => count === 1,
    'the upstream socket',
  );
  const [connection] = connections;
  expect(connection?.url).toBe(`/sockets/events/${conversation.id}?stream=true`);
  expect(connection?.key).toBe('session-key');

  connection?.socket.send(JSON.stringify(frame(0, 'Hello ')));
  connection?.socket.send(JSON.stringify({ id: 'e1', kind: 'MessageEvent', source: 'agent' }));
  connection?.socket.send(JSON.stringify(frame(1, 'world')));
  await until(
    async () => second.length,
    (count) => count === 2,
    'the frames',
  );
  expect(first.map((text) => JSON.parse(text))).toEqual([frame(0, 'Hello '), frame(1, 'world')]);
  expect(second).toEqual(first);

  stopFirst();
  expect(relay.size).toBe(1);
  stopSecond();
  expect(relay.size).toBe(0);
  await until(
    async () => connection?.socket.readyState,
    (state) => state === connection?.socket.CLOSED,
    'the close',
  );
  expect(connections).toHaveLength(1);
  relay.close();
});
