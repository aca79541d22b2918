import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildAgentServer } from '../src/index.ts';
import {
  type ConversationInfoBody,
  type Reply,
  SocketClient,
  call,
  createConversation,
  socketUrl,
} from './support/http.ts';
import { startRequest, startTestServer } from './support/server.ts';
import { testServerPerFile } from './support/shared-server.ts';

/** The app's web client calls the agent server from its own origin: CORS for the listed origins only. */

const KEY = 'cors-key';
const APP = 'https://app.example.com';
const LOCAL_APP = 'http://localhost:3001';
const OTHER = 'https://elsewhere.example.org';

// Written as an operator might (upper case, default port): compared as browsers send it.
const server = testServerPerFile({
  sessionApiKeys: [KEY],
  allowCorsOrigins: ['HTTPS://App.Example.com:443', LOCAL_APP],
});
let conversationId: string;
beforeAll(async () => {
  conversationId = (await createConversation(server.url, {}, { 'X-Session-API-Key': KEY })).id;
});

const header = (reply: Reply, name: string) => (reply.headers as Headers).get(name);

function preflight(base: string, path: string, origin: string, method = 'POST'): Promise<Reply> {
  return call(base, path, {
    method: 'OPTIONS',
    headers: {
      Origin: origin,
      'Access-Control-Request-Method': method,
      'Access-Control-Request-Headers': 'x-session-api-key,content-type',
    },
  });
}

describe('CORS', () => {
  it('answers a preflight from a listed origin, without the session key', async () => {
    for (const origin of [APP, LOCAL_APP]) {
      const reply = await preflight(server.url, `/api/conversations/${conversationId}/events`, origin);
      expect(reply.status).toBe(204);
      expect(header(reply, 'access-control-allow-origin')).toBe(origin);
      expect(header(reply, 'access-control-allow-methods')).toContain('POST');
      expect(header(reply, 'access-control-allow-headers')).toBe('x-session-api-key,content-type');
      expect(header(reply, 'vary')).toContain('Origin');
    }
    const patch = await preflight(server.url, `/api/conversations/${conversationId}`, APP, 'PATCH');
    expect(header(patch, 'access-control-allow-methods')).toContain('PATCH');
  });

  it('gives no allow-origin to another origin', async () => {
    const reply = await preflight(server.url, `/api/conversations/${conversationId}/events`, OTHER);
    expect(header(reply, 'access-control-allow-origin')).toBeNull();
    const get = await call(server.url, '/api/conversations/search', {
      headers: { Origin: OTHER, 'X-Session-API-Key': KEY },
    });
    expect(get.status).toBe(200);
    expect(header(get, 'access-control-allow-origin')).toBeNull();
  });

  it('sets allow-origin on answers to a listed origin, errors included', async () => {
    const withKey = { Origin: APP, 'X-Session-API-Key': KEY };
    const answers = [
      [await call(server.url, '/api/conversations/search', { headers: withKey }), 200],
      [await call(server.url, '/api/conversations/search', { headers: { Origin: APP } }), 401],
      [await call(server.url, `/api/conversations/${randomUUID()}`, { headers: withKey }), 404],
      [await call(server.url, '/api/conversations/not-a-uuid', { headers: withKey }), 422],
      [await call(server.url, '/no/such/route', { headers: withKey }), 404],
      [
        await call(server.url, `/api/conversations/${conversationId}/events`, {
          method: 'POST',
          json: { content: 'not a list' },
          headers: withKey,
        }),
        422,
      ],
    ] as const;
    for (const [reply, status] of answers) {
      expect(reply.status, reply.text).toBe(status);
      expect(header(reply, 'access-control-allow-origin'), reply.text).toBe(APP);
      if (status !== 200) expect(reply.body).toEqual({ detail: expect.anything() });
    }
  });

  it("refuses a WebSocket handshake from a page of another origin, not one from a listed origin's", async () => {
    const url = socketUrl(server.url, conversationId, { session_api_key: KEY });
    const refused = new SocketClient(url, { origin: OTHER });
    const failure = await refused.opened.then(
      () => 'opened',
      (error: Error) => error.message,
    );
    expect(failure).toContain('403');
    for (const options of [{ origin: APP }, {}]) {
      const client = new SocketClient(url, options);
      await client.opened;
      await client.until((frames) => frames.length > 0);
      await client.close();
    }
  });
});

describe('CORS with *', () => {
  it('allows any origin, WebSockets included', async () => {
    const any = await startTestServer({ sessionApiKeys: [KEY], allowCorsOrigins: ['*'] });
    try {
      const reply = await preflight(any.url, '/api/conversations/search', OTHER, 'GET');
      expect(reply.status).toBe(204);
      expect(header(reply, 'access-control-allow-origin')).toBe('*');
      const created = await call<ConversationInfoBody>(any.url, '/api/conversations', {
        method: 'POST',
        json: startRequest({ conversation_id: randomUUID() }),
        headers: { 'X-Session-API-Key': KEY, Origin: OTHER },
      });
      expect(created.status).toBe(201);
      expect(header(created, 'access-control-allow-origin')).toBe('*');
      const client = new SocketClient(socketUrl(any.url, created.body.id, { session_api_key: KEY }), { origin: OTHER });
      await client.opened;
      await client.close();
    } finally {
      await any.close();
    }
  });
});

describe('CORS not configured', () => {
  it('answers no preflight and sets no allow-origin', async () => {
    const plain = await startTestServer();
    try {
      const reply = await preflight(plain.url, '/api/conversations/search', APP, 'GET');
      expect(reply.status).toBe(405);
      expect(header(reply, 'access-control-allow-origin')).toBeNull();
      const get = await call(plain.url, '/api/conversations/search', { headers: { Origin: APP } });
      expect(get.status).toBe(200);
      expect(header(get, 'access-control-allow-origin')).toBeNull();
    } finally {
      await plain.close();
    }
  });

  it('refuses an origin that is not http(s) at start', async () => {
    await expect(buildAgentServer({ dataDir: '/nonexistent/never', allowCorsOrigins: ['ftp://x'] })).rejects.toThrow(
      /allow_cors_origins/,
    );
  });
});
