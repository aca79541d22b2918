import { once } from 'node:events';
import { gzipSync } from 'node:zlib';
import { Value } from '@sinclair/typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { openRaw, replyUntilClose } from '../../http/test/support/raw-http.ts';
import { AgentServerConfig, agentServerOptions } from '../src/config.ts';
import { idleRunner } from '../src/index.ts';
import { call } from './support/http.ts';
import { type TestServer, startRequest, startTestServer } from './support/server.ts';

/** The agent server facing a network: its timeouts come from its settings, as a deployment gives them. */
let shared: TestServer;
beforeAll(async () => {
  const settings = { body_idle_timeout: 0.3, headers_timeout: 0.5, request_timeout: 2, socket_ping_interval: 0.4 };
  const config = Value.Default(AgentServerConfig, settings) as AgentServerConfig;
  const { dataDir: _ignored, ...options } = agentServerOptions(config);
  shared = await startTestServer({ ...options, runner: idleRunner });
});
afterAll(() => shared.close());

const rawTo = async (text: string) => {
  const socket = await openRaw(shared.server.app);
  const reply = replyUntilClose(socket);
  socket.write(text);
  return reply;
};

describe('the agent server exposed to a network', () => {
  it('answers 408 to a body shorter than its Content-Length, and closes the connection', async () => {
    const { status, json } = await rawTo(
      'POST /api/conversations HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"agent":',
    );
    expect(status).toBe(408);
    expect(json).toEqual({ detail: expect.any(String) });
  });

  it('answers 405 with Allow to a wrong method on a path it has', async () => {
    const reply = await call(shared.url, '/api/conversations', { method: 'PUT' });
    expect(reply.status).toBe(405);
    expect((reply.headers as Headers).get('allow')).toBe('GET, POST');
    expect(reply.body).toEqual({ detail: expect.any(String) });
  });

  it('reads a gzip JSON body', async () => {
    const response = await fetch(`${shared.url}/api/conversations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync(JSON.stringify(startRequest())),
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ id: expect.any(String) });
  });

  it('refuses a WebSocket handshake on a plain route without switching protocols', async () => {
    const { status, json } = await rawTo(
      'GET /api/conversations HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n' +
        'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
    );
    expect(status).toBe(400);
    expect(json).toEqual({ detail: expect.any(String) });
  });

  it('pings a quiet WebSocket at its socket_ping_interval, and cuts a client that does not answer', async () => {
    const url = `${shared.url.replace('http', 'ws')}/sockets/bash-events`;
    const answering = new WebSocket(url);
    let pings = 0;
    answering.on('ping', () => pings++);
    const silent = new WebSocket(url, { autoPong: false });
    const [code] = await once(silent, 'close');
    expect(code).toBe(1006);
    expect(pings).toBeGreaterThanOrEqual(1);
    expect(answering.readyState).toBe(WebSocket.OPEN);
    answering.close();
  });
});
