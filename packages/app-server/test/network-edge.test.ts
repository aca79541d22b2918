import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRaw, replyUntilClose } from '../../http/test/support/raw-http.ts';
import type { ApiRoutes } from '../src/index.ts';
import { type ListeningApp, call, listenApp } from './support/app.ts';

/** The app server facing the internet: its timeouts come from its settings. */
const notes: ApiRoutes = (api) => {
  api.post('/notes', async (request) => ({ note: request.body }));
  api.get('/notes', async () => []);
};
const sockets: ApiRoutes = (app) => {
  app.get('/sockets/echo', { websocket: true }, (socket) => {
    socket.on('message', (data) => socket.send(data));
  });
};

let app: ListeningApp;
beforeAll(async () => {
  app = await listenApp({
    apiRoutes: [notes],
    socketRoutes: [sockets],
    config: { body_idle_timeout: 0.3, headers_timeout: 0.5, request_timeout: 2 },
  });
});
afterAll(() => app.close());

const rawTo = async (text: string) => {
  const socket = await openRaw(app.server.app);
  const reply = replyUntilClose(socket);
  socket.write(text);
  return reply;
};

describe('the app server exposed to a network', () => {
  it('answers 408 to a body shorter than its Content-Length, and closes the connection', async () => {
    const { status, json } = await rawTo(
      'POST /api/v1/notes HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{"a"',
    );
    expect(status).toBe(408);
    expect(json).toEqual({ detail: expect.any(String) });
  });

  it('answers 408 to headers that never end', async () => {
    const socket = await openRaw(app.server.app);
    const reply = replyUntilClose(socket);
    socket.write('GET /api/v1/notes HTTP/1.1\r\nHost: x\r\n');
    const { status, json } = await reply;
    expect(status).toBe(408);
    expect(json).toEqual({ detail: 'Request Timeout' });
  });

  it('answers 405 with Allow to a wrong method on a path it has', async () => {
    const reply = await call(app.url, '/api/v1/notes', { method: 'DELETE' });
    expect(reply.status).toBe(405);
    expect(reply.headers.get('allow')).toBe('GET, POST');
    expect(reply.body).toEqual({ detail: expect.any(String) });
  });

  it('reads a gzip JSON body, and refuses one that decodes past the body limit with a 413', async () => {
    const headers = { 'content-type': 'application/json', 'content-encoding': 'gzip' };
    const ok = await call(app.url, '/api/v1/notes', { method: 'POST', headers, body: gzipSync('{"a":1}') });
    expect(ok.body).toEqual({ note: { a: 1 } });
    const bomb = gzipSync(`"${'a'.repeat(40 * 1024 * 1024)}"`);
    const refused = await call(app.url, '/api/v1/notes', { method: 'POST', headers, body: bomb });
    expect(refused.status).toBe(413);
    expect(refused.body).toEqual({ detail: expect.any(String) });
  });

  it('refuses a WebSocket handshake on a plain route without switching protocols', async () => {
    const { status, json } = await rawTo(
      'GET /api/v1/notes HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n' +
        'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
    );
    expect(status).toBe(400);
    expect(json).toEqual({ detail: expect.any(String) });
  });
});
