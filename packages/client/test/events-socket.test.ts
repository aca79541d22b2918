import type { IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { type WebSocket, WebSocketServer } from 'ws';
import { followEvents } from '../src/index.ts';

/**
 * An event socket that answers no ping (a connection the network lost without closing it): each connection gets
 * the snapshot, then one new event named after the connection's query.
 */
function silentServer(): Promise<{ url: string; queries: string[]; server: WebSocketServer }> {
  const queries: string[] = [];
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0, autoPong: false });
  server.on('connection', (socket: WebSocket, request: IncomingMessage) => {
    const query = new URL(request.url ?? '/', 'http://x').search;
    queries.push(query);
    const frame = (event: Record<string, unknown>) =>
      socket.send(JSON.stringify({ timestamp: '2026-01-01T00:00:00Z', source: 'environment', ...event }));
    frame({
      id: `s${queries.length}`,
      kind: 'ConversationStateUpdateEvent',
      key: 'full_state',
      value: { event_count: 0 },
    });
    frame({ id: `e${queries.length}`, kind: 'PauseEvent', source: 'user' });
  });
  return new Promise((resolve) =>
    server.once('listening', () => {
      const { port } = server.address() as { port: number };
      resolve({ url: `ws://127.0.0.1:${port}/sockets/events/c`, queries, server });
    }),
  );
}

let close: (() => void) | undefined;
afterEach(() => close?.());

describe('followEvents heartbeat', () => {
  it('drops a connection that answers no ping and resumes after the last event it delivered', async () => {
    const { url, queries, server } = await silentServer();
    close = () => server.close();
    const reasons: string[] = [];
    const stream = followEvents({
      url,
      headers: {},
      fromStart: true,
      heartbeatMs: 50,
      reconnect: { initialDelayMs: 1, maxDelayMs: 5 },
      onReconnect: ({ reason }) => reasons.push(reason),
    });
    const ids: string[] = [];
    for await (const event of stream) {
      ids.push(event.id);
      if (ids.length === 3) break;
    }
    expect(ids).toEqual(['e1', 'e2', 'e3']);
    expect(queries).toEqual(['?resend_mode=all', '?after_event_id=e1', '?after_event_id=e2']);
    expect(reasons).toHaveLength(2);
    for (const reason of reasons) expect(reason).toContain('1006');
  });
});
