import { once } from 'node:events';
import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createHttpServer } from '../src/server.ts';
import { openRaw, parseReply, pause, replyUntilClose } from './support/raw-http.ts';

// Short timeouts, so that a client past them is seen within a test; what must not be cut runs well past them.
const timeouts = { headersMs: 600, requestMs: 1500, bodyIdleMs: 400, keepAliveMs: 500 };
let app: FastifyInstance;

beforeAll(async () => {
  app = createHttpServer({ timeouts });
  await app.register(websocket);
  app.post('/echo', async (request) => request.body);
  app.post('/size', async (request) => {
    let bytes = 0;
    for await (const chunk of request.raw) bytes += (chunk as Buffer).length;
    return { bytes };
  });
  app.addContentTypeParser('application/octet-stream', (_request, _payload, done) => done(null, undefined));
  app.get('/slow-download', async (_request, reply) => {
    reply.raw.writeHead(200, { 'content-type': 'text/plain' });
    for (let i = 0; i < 12; i++) {
      reply.raw.write(`${i}\n`);
      await pause(200);
    }
    reply.raw.end();
    return reply;
  });
  app.get('/socket', { websocket: true }, (socket) => {
    socket.on('message', (data) => socket.send(String(data)));
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
});

afterAll(() => app.close());

describe('a client that never finishes sending is answered 408 and its connection closed', () => {
  it('a body shorter than its Content-Length', async () => {
    const socket = await openRaw(app);
    const reply = replyUntilClose(socket);
    socket.write(
      'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":',
    );
    const { status, json } = await reply;
    expect(status).toBe(408);
    expect(json).toEqual({ detail: expect.any(String) });
  });

  it('a body that keeps trickling past the whole-request timeout', async () => {
    const socket = await openRaw(app);
    const reply = replyUntilClose(socket);
    socket.write('POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n');
    const trickle = setInterval(() => socket.writable && socket.write(' '), 100);
    const { status, json } = await reply;
    clearInterval(trickle);
    expect(status).toBe(408);
    expect(json).toEqual({ detail: 'Request Timeout' });
  });

  it('headers that never end', async () => {
    const socket = await openRaw(app);
    const reply = replyUntilClose(socket);
    socket.write('GET /slow-download HTTP/1.1\r\nHost: x\r\n');
    const trickle = setInterval(() => socket.writable && socket.write('X-A: b\r\n'), 100);
    const { status, json } = await reply;
    clearInterval(trickle);
    expect(status).toBe(408);
    expect(json).toEqual({ detail: 'Request Timeout' });
  });

  it('an idle connection between requests is closed after the keep-alive timeout', async () => {
    const socket = await openRaw(app);
    const reply = replyUntilClose(socket);
    socket.write('POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}');
    const { status } = await reply;
    expect(status).toBe(200);
  });
});

describe('what is legitimately slow is not cut', () => {
  it('an upload that keeps coming, for longer than the idle timeout', async () => {
    const socket = await openRaw(app);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.write(
      'POST /size HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: 8\r\n\r\n',
    );
    for (let i = 0; i < 8; i++) {
      await pause(150);
      socket.write('x');
    }
    await once(socket, 'data');
    const reply = parseReply(Buffer.concat(chunks).toString('utf8'));
    socket.destroy();
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({ bytes: 8 });
  });

  it('a download longer than every timeout', async () => {
    const response = await fetch(`${base()}/slow-download`);
    expect(response.status).toBe(200);
    expect((await response.text()).split('\n').filter(Boolean)).toHaveLength(12);
  });

  it('a WebSocket open for longer than every timeout', async () => {
    const socket = new WebSocket(`${base().replace('http', 'ws')}/socket`);
    await once(socket, 'open');
    await pause(2000);
    socket.send('still here');
    const [data] = await once(socket, 'message');
    expect(String(data)).toBe('still here');
    socket.close();
  });
});

function base(): string {
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening');
  return `http://127.0.0.1:${address.port}`;
}
