import { once } from 'node:events';
import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createHttpServer } from '../src/server.ts';

// Long enough that a client in this busy process always answers in time; short enough to see a few.
const PING_MS = 400;
let app: FastifyInstance;
let url: string;

beforeAll(async () => {
  app = createHttpServer({ timeouts: { socketPingMs: PING_MS } });
  await app.register(websocket);
  app.get('/socket', { websocket: true }, (socket) => {
    socket.on('message', (data) => socket.send(String(data)));
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  url = `ws://127.0.0.1:${(app.server.address() as { port: number }).port}/socket`;
});

afterAll(() => app.close());

const opened = async (options: { autoPong?: boolean } = {}) => {
  const client = new WebSocket(url, options);
  await once(client, 'open');
  return client;
};

describe('WebSocket heartbeat', () => {
  it('pings a quiet socket, which stays open while its client answers', async () => {
    const client = await opened();
    let pings = 0;
    client.on('ping', () => pings++);
    await new Promise((resolve) => setTimeout(resolve, PING_MS * 4));
    expect(pings).toBeGreaterThanOrEqual(2);
    expect(client.readyState).toBe(WebSocket.OPEN);
    client.send('still here');
    const [echo] = await once(client, 'message');
    expect(String(echo)).toBe('still here');
    client.close();
  });

  it('cuts a client that stops answering pings (gone without a close)', async () => {
    const client = await opened({ autoPong: false });
    const closed = once(client, 'close');
    const [code] = await closed;
    // Terminated, not closed with a handshake: the client learns of it as an abnormal closure.
    expect(code).toBe(1006);
  });

  it('sends no ping with the interval at 0', async () => {
    const quiet = createHttpServer({ timeouts: { socketPingMs: 0 } });
    await quiet.register(websocket);
    quiet.get('/socket', { websocket: true }, () => {});
    await quiet.listen({ host: '127.0.0.1', port: 0 });
    try {
      const port = (quiet.server.address() as { port: number }).port;
      const client = new WebSocket(`ws://127.0.0.1:${port}/socket`, { autoPong: false });
      await once(client, 'open');
      let pings = 0;
      client.on('ping', () => pings++);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(pings).toBe(0);
      expect(client.readyState).toBe(WebSocket.OPEN);
      client.close();
    } finally {
      await quiet.close();
    }
  });
});
