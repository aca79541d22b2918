import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOSE_AUTH_FAILED, CLOSE_NOT_FOUND } from '../src/index.ts';
import {
  type ConversationInfoBody,
  SocketClient,
  call,
  createConversation,
  getWithBody,
  isFullState,
  socketUrl,
} from './support/http.ts';
import { startRequest } from './support/server.ts';
import { testServerPerFile } from './support/shared-server.ts';

const KEY = 'k1';
const OTHER_KEY = 'second-key';
const good = { 'X-Session-API-Key': KEY };

const server = testServerPerFile({ sessionApiKeys: [KEY, OTHER_KEY] });
let base: string;
let conversationId: string;
let eventId: string;
const sockets: SocketClient[] = [];

beforeAll(async () => {
  base = server.url;
  conversationId = (await createConversation(base, {}, good)).id;
  const sent = await call(base, `/api/conversations/${conversationId}/events`, {
    method: 'POST',
    json: { content: [{ type: 'text', text: 'hello' }] },
    headers: good,
  });
  expect(sent.status).toBe(200);
  const page = await call<{ items: { id: string }[] }>(base, `/api/conversations/${conversationId}/events/search`, {
    headers: good,
  });
  eventId = page.body.items[0]?.id as string;
});
afterAll(async () => {
  await Promise.all(sockets.map((s) => s.close()));
});

function socket(id: string, query: Record<string, string> = {}, headers: Record<string, string> = {}): SocketClient {
  const client = new SocketClient(socketUrl(base, id, query), { headers });
  sockets.push(client);
  return client;
}

interface Route {
  method: string;
  /** With `{cid}` for the conversation, `{eid}` for its event and `{new}` for an unknown id. */
  path: string;
  json?: () => unknown;
  /** The status with the right key. */
  ok: number;
}

const routes: Route[] = [
  { method: 'POST', path: '/api/conversations', json: () => startRequest(), ok: 201 },
  { method: 'GET', path: '/api/conversations/search', ok: 200 },
  { method: 'GET', path: '/api/conversations/count', ok: 200 },
  { method: 'GET', path: '/api/conversations?ids={cid}', ok: 200 },
  { method: 'GET', path: '/api/conversations/{cid}', ok: 200 },
  { method: 'PATCH', path: '/api/conversations/{cid}', json: () => ({ title: 'T' }), ok: 200 },
  { method: 'POST', path: '/api/conversations/{cid}/pause', ok: 200 },
  { method: 'POST', path: '/api/conversations/{cid}/run', ok: 200 },
  {
    method: 'POST',
    path: '/api/conversations/{cid}/events',
    json: () => ({ content: [{ type: 'text', text: 'x' }] }),
    ok: 200,
  },
  { method: 'POST', path: '/api/conversations/{cid}/events/batch', json: () => [eventId], ok: 200 },
  { method: 'GET', path: '/api/conversations/{cid}/events/search', ok: 200 },
  { method: 'GET', path: '/api/conversations/{cid}/events/count', ok: 200 },
  { method: 'GET', path: '/api/conversations/{cid}/events/{eid}', ok: 200 },
  { method: 'DELETE', path: '/api/conversations/{new}', ok: 404 },
  // Unknown resources and invalid input are not revealed without a key either.
  { method: 'GET', path: '/api/conversations/{new}', ok: 404 },
  { method: 'GET', path: '/api/conversations/not-a-uuid', ok: 422 },
  { method: 'POST', path: '/api/conversations', json: () => ({}), ok: 422 },
  { method: 'GET', path: '/api/no-such-route', ok: 404 },
];

function resolve(path: string): string {
  return path.replaceAll('{cid}', conversationId).replaceAll('{eid}', eventId).replaceAll('{new}', randomUUID());
}

/** Requests that do not carry a valid session key. */
const WITHOUT_THE_KEY: Record<string, string>[] = [
  {},
  { 'X-Session-API-Key': 'wrong' },
  { 'X-Session-API-Key': '' },
  { Authorization: `Bearer ${KEY}` },
];

describe('session API keys on /api/*', () => {
  for (const route of routes) {
    it(`${route.method} ${route.path}: 401 without or with a wrong key`, async () => {
      for (const headers of WITHOUT_THE_KEY) {
        const reply = await call(base, resolve(route.path), { method: route.method, json: route.json?.(), headers });
        expect(reply.status, JSON.stringify(headers)).toBe(401);
        expect(reply.body).toEqual({ detail: 'Unauthorized' });
      }
      const authorized = await call(base, resolve(route.path), {
        method: route.method,
        json: route.json?.(),
        headers: good,
      });
      expect(authorized.status, authorized.text).toBe(route.ok);
    });
  }

  it('protects the GET-with-body batch route', async () => {
    const path = `/api/conversations/${conversationId}/events`;
    const denied = await getWithBody(base, path, JSON.stringify([eventId]));
    expect(denied.status).toBe(401);
    expect(denied.body).toEqual({ detail: 'Unauthorized' });
    const wrong = await getWithBody(base, path, JSON.stringify([eventId]), { 'X-Session-API-Key': 'nope' });
    expect(wrong.status).toBe(401);
    const allowed = await getWithBody<{ id: string }[]>(base, path, JSON.stringify([eventId]), good);
    expect(allowed.status).toBe(200);
    expect(allowed.body.map((e) => e.id)).toEqual([eventId]);
  });

  it('accepts any configured key, with the header name in any case', async () => {
    const second = await call(base, '/api/conversations/count', { headers: { 'X-Session-API-Key': OTHER_KEY } });
    expect(second.status).toBe(200);
    const lower = await call(base, '/api/conversations/count', { headers: { 'x-session-api-key': KEY } });
    expect(lower.status).toBe(200);
    // A key is compared whole.
    for (const near of [`${KEY}x`, KEY.slice(0, 1), KEY.toUpperCase(), `${KEY} k1`]) {
      const reply = await call(base, '/api/conversations/count', { headers: { 'X-Session-API-Key': near } });
      expect(reply.status, near).toBe(401);
    }
  });

  it('cannot be bypassed by spelling the path differently', async () => {
    for (const path of [
      '/%61pi/conversations/search',
      '/%61%70%69/conversations/count',
      `/%61pi/conversations/${conversationId}`,
    ]) {
      const reply = await call(base, path);
      expect(reply.status, path).not.toBe(200);
      expect([401, 404], path).toContain(reply.status);
      expect(reply.text).not.toContain(conversationId);
    }
    const encoded = await call(base, '/%61pi/conversations/search');
    expect(encoded.status).toBe(401);
  });

  it('leaves /alive, /health, /ready, /server_info, /openapi.json and /docs open', async () => {
    for (const path of ['/alive', '/health', '/ready', '/server_info', '/openapi.json', '/docs']) {
      const reply = await call(base, path);
      expect(reply.status, path).toBe(200);
    }
    const wrong = await call(base, '/alive', { headers: { 'X-Session-API-Key': 'wrong' } });
    expect(wrong.status).toBe(200);
  });

  it('never changes anything without a key', async () => {
    const before = await call<ConversationInfoBody>(base, `/api/conversations/${conversationId}`, { headers: good });
    await call(base, `/api/conversations/${conversationId}`, { method: 'DELETE' });
    await call(base, `/api/conversations/${conversationId}`, { method: 'PATCH', json: { title: 'hacked' } });
    const after = await call<ConversationInfoBody>(base, `/api/conversations/${conversationId}`, { headers: good });
    expect(after.status).toBe(200);
    expect(after.body.title).toBe(before.body.title);
  });
});

describe('session API keys on the event socket', () => {
  it('accepts ?session_api_key=', async () => {
    const client = socket(conversationId, { session_api_key: KEY });
    const [first] = await client.until((frames) => frames.length >= 1);
    expect(first && isFullState(first)).toBe(true);
    expect((first?.value as { id: string } | undefined)?.id).toBe(conversationId);
    await client.close();
  });

  it('accepts the X-Session-API-Key header', async () => {
    const client = socket(conversationId, {}, { 'X-Session-API-Key': OTHER_KEY });
    const [first] = await client.until((frames) => frames.length >= 1);
    expect(first && isFullState(first)).toBe(true);
    await client.close();
  });

  it('accepts a first frame {"type":"auth","session_api_key":...}, then ignores later auth frames', async () => {
    const client = socket(conversationId, { resend_mode: 'all' });
    await client.opened;
    client.send({ type: 'auth', session_api_key: KEY });
    const frames = await client.until((f) => f.length >= 2);
    expect(frames[0] && isFullState(frames[0])).toBe(true);
    expect(frames[1]?.id).toBe(eventId);
    client.send({ type: 'auth', session_api_key: KEY });
    client.send({ type: 'auth', session_api_key: 'even-a-wrong-one' });
    client.send({ role: 'user', content: [{ type: 'text', text: 'after auth' }] });
    const more = await client.until((f) =>
      f.some((e) => e.kind === 'MessageEvent' && e.source === 'user' && f.indexOf(e) > 1),
    );
    expect(more.filter((e) => e.kind === 'ConversationErrorEvent')).toEqual([]);
    expect(client.ws.readyState).toBe(client.ws.OPEN);
    await client.close();
  });

  it('closes with 4001 for a wrong key, in the query, the header or the first frame', async () => {
    const viaQuery = socket(conversationId, { session_api_key: 'wrong' });
    expect((await viaQuery.closed).code).toBe(CLOSE_AUTH_FAILED);
    const viaHeader = socket(conversationId, {}, { 'X-Session-API-Key': 'wrong' });
    expect((await viaHeader.closed).code).toBe(CLOSE_AUTH_FAILED);
    const viaFrame = socket(conversationId);
    await viaFrame.opened;
    viaFrame.send({ type: 'auth', session_api_key: 'wrong' });
    expect((await viaFrame.closed).code).toBe(CLOSE_AUTH_FAILED);
    for (const client of [viaQuery, viaHeader, viaFrame]) {
      expect(client.frames).toEqual([]);
    }
    expect(CLOSE_AUTH_FAILED).toBe(4001);
  });

  it('closes with 4001 when the first frame is not an auth frame', async () => {
    for (const frame of [
      'not json',
      JSON.stringify({ role: 'user', content: [{ type: 'text', text: 'x' }] }),
      '[]',
      JSON.stringify({ type: 'auth' }),
    ]) {
      const client = socket(conversationId);
      await client.opened;
      client.send(frame);
      const closed = await client.closed;
      expect(closed, frame).toEqual({
        code: CLOSE_AUTH_FAILED,
        reason: 'Authentication failed: the first frame must be {"type":"auth","session_api_key":"..."}',
      });
      expect(client.frames).toEqual([]);
    }
  });

  it('closes with 4004 for an unknown conversation once authenticated', async () => {
    const unknown = socket(randomUUID(), { session_api_key: KEY });
    expect((await unknown.closed).code).toBe(CLOSE_NOT_FOUND);
    expect(CLOSE_NOT_FOUND).toBe(4004);
    const viaFrame = socket(randomUUID());
    await viaFrame.opened;
    viaFrame.send({ type: 'auth', session_api_key: KEY });
    expect((await viaFrame.closed).code).toBe(CLOSE_NOT_FOUND);
    // Without a key, an unknown conversation is an authentication failure (nothing is revealed).
    const anonymous = socket(randomUUID(), { session_api_key: 'wrong' });
    expect((await anonymous.closed).code).toBe(CLOSE_AUTH_FAILED);
  });
});
