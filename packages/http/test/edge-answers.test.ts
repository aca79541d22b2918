import { once } from 'node:events';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { FORWARDS_BODY } from '../src/content-encoding.ts';
import { installEdgeErrors } from '../src/framework-errors.ts';
import { createHttpServer } from '../src/server.ts';
import { openRaw, replyUntilClose } from './support/raw-http.ts';

const BODY_LIMIT = 64 * 1024;
let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  app = createHttpServer({ bodyLimit: BODY_LIMIT });
  await app.register(websocket);
  installEdgeErrors(app);
  app.post('/echo', async (request) => ({ body: request.body }));
  app.get('/things/:id', async (request) => request.params);
  app.delete('/things/:id', async () => ({ deleted: true }));
  app.get('/files/*', async (_request, reply) => reply.callNotFound());
  app.get('/socket', { websocket: true }, (socket) => {
    socket.on('message', (data) => socket.send(String(data)));
  });
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  app.post('/forward', { config: FORWARDS_BODY }, async (request) => {
    let bytes = 0;
    for await (const chunk of request.body as AsyncIterable<Buffer>) bytes += chunk.length;
    return { bytes };
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(() => app.close());

const post = (path: string, body: Uint8Array | string, headers: Record<string, string>) =>
  fetch(`${base}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });

describe('an injected request (no real socket)', () => {
  it('is answered as any other, its body read', async () => {
    const answer = await app.inject({ method: 'POST', url: '/echo', payload: { a: 1 } });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ body: { a: 1 } });
  });
});

describe('a wrong method on a path that exists', () => {
  it('is a 405 with the methods the path has in Allow', async () => {
    const response = await fetch(`${base}/things/7`, { method: 'PUT' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('DELETE, GET');
    expect(await response.json()).toEqual({ detail: expect.stringContaining('PUT') });
    expect((await fetch(`${base}/echo`)).headers.get('allow')).toBe('POST');
  });

  it('while a path that no route has stays a 404, and a right method is answered', async () => {
    const missing = await fetch(`${base}/nothing/here`, { method: 'PUT' });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ detail: 'Not Found' });
    expect(await (await fetch(`${base}/things/7`)).json()).toEqual({ id: '7' });
  });

  it('while a route of the right method that finds nothing there is a 404, not a 405 naming its HEAD', async () => {
    const missing = await fetch(`${base}/files/missing.js`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('allow')).toBeNull();
    expect((await fetch(`${base}/files/missing.js`, { method: 'PUT' })).status).toBe(405);
  });
});

describe('a coded request body', () => {
  const json = JSON.stringify({ text: 'héllo'.repeat(100) });
  const expected = { body: JSON.parse(json) };

  it('is decoded from gzip, deflate and br', async () => {
    for (const [coding, bytes] of [
      ['gzip', gzipSync(json)],
      ['deflate', deflateSync(json)],
      ['br', brotliCompressSync(json)],
      ['gzip, br', brotliCompressSync(gzipSync(json))],
    ] as const) {
      const response = await post('/echo', bytes, { 'content-encoding': coding });
      expect(response.status, coding).toBe(200);
      expect(await response.json()).toEqual(expected);
    }
  });

  it('larger than the body limit once decoded (a decompression bomb) is a 413', async () => {
    const bomb = gzipSync(JSON.stringify({ text: 'a'.repeat(50 * BODY_LIMIT) }));
    expect(bomb.length).toBeLessThan(BODY_LIMIT);
    const response = await post('/echo', bomb, { 'content-encoding': 'gzip' });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ detail: expect.any(String) });
  });

  it('in an unknown coding, or coded and not JSON, is a 415; not valid in its coding, a 400', async () => {
    for (const [headers, status] of [
      [{ 'content-encoding': 'zstd' }, 415],
      [{ 'content-encoding': 'gzip', 'content-type': 'text/plain' }, 415],
      [{ 'content-encoding': 'gzip' }, 400],
    ] as const) {
      const response = await post('/echo', json, headers);
      expect(response.status, JSON.stringify(headers)).toBe(status);
      expect(await response.json()).toEqual({ detail: expect.any(String) });
    }
  });

  it('goes on as it came on a route that forwards bodies', async () => {
    const bytes = gzipSync(json);
    const response = await post('/forward', bytes, { 'content-encoding': 'gzip', 'content-type': 'text/plain' });
    expect(await response.json()).toEqual({ bytes: bytes.length });
  });
});

describe('a WebSocket handshake', () => {
  const handshake = (path: string) =>
    `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`;

  it('on a route that is no WebSocket is refused with a 400, never switching protocols', async () => {
    const socket = await openRaw(app);
    const reply = replyUntilClose(socket);
    socket.write(handshake('/things/7'));
    const { status, json } = await reply;
    expect(status).toBe(400);
    expect(json).toEqual({ detail: expect.stringContaining('upgrade') });
  });

  it('on a path no route has is a 404, on a wrong method a 405', async () => {
    for (const [path, status] of [
      ['/nothing', 404],
      ['/echo', 405],
    ] as const) {
      const socket = await openRaw(app);
      const reply = replyUntilClose(socket);
      socket.write(handshake(path));
      const answer = await reply;
      expect(answer.status, path).toBe(status);
      expect(answer.json).toEqual({ detail: expect.any(String) });
    }
  });

  it('on a WebSocket route switches and talks', async () => {
    const socket = new WebSocket(`${base.replace('http', 'ws')}/socket`);
    await once(socket, 'open');
    socket.send('hi');
    expect(String((await once(socket, 'message'))[0])).toBe('hi');
    socket.close();
  });
});
