import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SocketClient, call, getWithBody, socketUrl } from './support/http.ts';
import { startRequest } from './support/server.ts';
import { serverWithConversationPerFile } from './support/shared-server.ts';

const shared = serverWithConversationPerFile();

const JSON_TYPE = { 'content-type': 'application/json' };

/** `{"a":{"a":...{"a":1}}}`, `depth` objects deep, as JSON text (too deep for `JSON.stringify`). */
function nested(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** A start request (JSON text) whose `agent.system_prompt_kwargs` holds `kwargs` (JSON text). */
function startWithKwargs(kwargs: string): string {
  const body = startRequest({ conversation_id: randomUUID() });
  (body.agent as Record<string, unknown>).system_prompt_kwargs = '__KWARGS__';
  return JSON.stringify(body).replace('"__KWARGS__"', kwargs);
}

/** `POST /api/conversations` with a start request whose `system_prompt_kwargs` nests objects `depth` deep. */
const postStartNested = (depth: number) =>
  call(shared.server.url, '/api/conversations', {
    method: 'POST',
    raw: startWithKwargs(`{"deep":${nested(depth)}}`),
    headers: JSON_TYPE,
  });

describe('an empty body is no body', () => {
  it.each([
    ['GET', '/alive'],
    ['GET', '/health'],
    ['GET', '/server_info'],
    ['GET', '/api/conversations/search'],
    ['GET', '/api/conversations/count'],
  ])('%s %s with a JSON content type and no body is answered as without it', async (method, path) => {
    // `getWithBody` without a body sends the header and no body at all (no Content-Length), as many clients do.
    const reply = await getWithBody(shared.server.url, path, undefined, JSON_TYPE);
    expect(reply.status, reply.text).toBe(200);
    const withLength = await getWithBody(shared.server.url, path, '', JSON_TYPE);
    expect(withLength.status, withLength.text).toBe(200);
    expect(method).toBe('GET');
  });

  it('a POST to a route that takes no body, with a JSON content type and an empty body, succeeds', async () => {
    const reply = await call(shared.server.url, `/api/conversations/${shared.conversationId}/pause`, {
      method: 'POST',
      raw: '',
      headers: JSON_TYPE,
    });
    expect(reply.status, reply.text).toBe(200);
  });

  it('any content type with no body is no body', async () => {
    const reply = await getWithBody(shared.server.url, '/alive', '', { 'content-type': 'application/xml' });
    expect(reply.status, reply.text).toBe(200);
  });

  it('a route that takes a body still answers 422 "Field required" for an empty one', async () => {
    const path = `/api/conversations/${shared.conversationId}/events`;
    for (const reply of [
      await getWithBody(shared.server.url, path, '', JSON_TYPE),
      await getWithBody(shared.server.url, path, undefined, JSON_TYPE),
      await call(shared.server.url, `${path}/batch`, { method: 'POST', raw: '', headers: JSON_TYPE }),
      await call(shared.server.url, `${path}/batch`, { method: 'POST' }),
    ]) {
      expect(reply.status, reply.text).toBe(422);
      expect(reply.body).toEqual({ detail: [{ loc: ['body'], msg: 'Field required', type: 'missing' }] });
    }
  });
});

describe('numbers in the query', () => {
  const searches = () => ['/api/conversations/search', `/api/conversations/${shared.conversationId}/events/search`];

  it.each(['Infinity', '-Infinity', '%2BInfinity', '1e400', '-1e400'])(
    'limit=%s is a 422 on both searches',
    async (limit) => {
      for (const path of searches()) {
        const reply = await call(shared.server.url, `${path}?limit=${limit}`);
        expect(reply.status, reply.text).toBe(422);
        expect(reply.body).toEqual({
          detail: [{ loc: ['query', 'limit'], msg: expect.stringContaining('valid integer'), type: 'int_type' }],
        });
      }
    },
  );

  it('unknown query parameters are ignored, as FastAPI ignores them; a known one with a bad value is still a 422', async () => {
    for (const path of [...searches(), '/api/bash/bash_events/search']) {
      const ignored = await call(shared.server.url, `${path}?sort=newest&page=2&limit=5`);
      expect(ignored.status, ignored.text).toBe(200);
      const bad = await call(shared.server.url, `${path}?sort=newest&limit=none`);
      expect(bad.status, bad.text).toBe(422);
      expect(bad.body).toMatchObject({ detail: [{ loc: ['query', 'limit'] }] });
    }
  });

  it('a finite limit in exponent notation is still a number', async () => {
    const reply = await call(shared.server.url, '/api/conversations/search?limit=1e1');
    expect(reply.status, reply.text).toBe(200);
  });
});

describe('nesting depth', () => {
  it('a value nested thousands of levels deep in a free-form field is a 422, not a 500', async () => {
    const reply = await postStartNested(5000);
    expect(reply.status, reply.text).toBe(422);
    expect(reply.body).toEqual({
      detail: [{ loc: ['body'], msg: expect.stringContaining('nested deeper than'), type: 'json_invalid' }],
    });
  });

  it('deep arrays are refused as deep objects are', async () => {
    const reply = await call(shared.server.url, `/api/conversations/${shared.conversationId}/events/batch`, {
      method: 'POST',
      raw: `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
      headers: JSON_TYPE,
    });
    expect(reply.status, reply.text).toBe(422);
    expect((reply.body as { detail: { type: string }[] }).detail[0]?.type).toBe('json_invalid');
  });

  it('a modest nesting (a real tool schema, say) is accepted', async () => {
    const reply = await postStartNested(60);
    expect(reply.status, reply.text).toBe(201);
  });

  it('a WebSocket frame nested too deep is answered with a validation error, and the socket lives on', async () => {
    const client = new SocketClient(socketUrl(shared.server.url, shared.conversationId));
    try {
      await client.opened;
      const before = client.frames.length;
      client.send(`{"role":"user","content":[{"type":"text","text":"x","meta":${nested(5000)}}]}`);
      const frames = await client.until((all) => all.slice(before).some((f) => f.kind === 'ConversationErrorEvent'));
      const error = frames.slice(before).find((f) => f.kind === 'ConversationErrorEvent') as unknown as {
        detail: string;
      };
      expect(JSON.parse(error.detail)).toEqual({
        detail: [{ loc: [], msg: expect.stringContaining('nested deeper than'), type: 'json_invalid' }],
      });
    } finally {
      await client.close();
    }
  });
});

describe('a 422 never echoes a whole invalid value', () => {
  const huge = 'A'.repeat(5_000_000);

  it.each([
    ['security_analyzer', { security_analyzer: { kind: huge } }],
    ['confirmation_policy', { policy: { kind: huge } }],
  ])('a 5 MB %s kind gives a short error', async (route, body) => {
    const reply = await call(shared.server.url, `/api/conversations/${shared.conversationId}/${route}`, {
      method: 'POST',
      json: body,
    });
    expect(reply.status).toBe(422);
    expect(reply.text.length).toBeLessThan(2000);
    expect(reply.text).toContain("'AAAA");
  });

  it('a 5 MB value in a start request gives a short error', async () => {
    const body = startRequest({ conversation_id: randomUUID(), security_analyzer: { kind: huge } });
    const reply = await call(shared.server.url, '/api/conversations', { method: 'POST', json: body });
    expect(reply.status).toBe(422);
    expect(reply.text.length).toBeLessThan(2000);
  });

  it('a 5 MB unknown property name gives a short error', async () => {
    const reply = await call(shared.server.url, `/api/conversations/${shared.conversationId}/security_analyzer`, {
      method: 'POST',
      json: { security_analyzer: null, [huge]: 1 },
    });
    expect(reply.status).toBe(422);
    expect(reply.text.length).toBeLessThan(2000);
    expect((reply.body as { detail: { type: string }[] }).detail[0]?.type).toBe('extra_forbidden');
  });

  it('a long unknown page_id is cut in the message', async () => {
    const reply = await call(shared.server.url, `/api/conversations/search?page_id=${'p'.repeat(8000)}`);
    expect(reply.status).toBe(422);
    expect(reply.text.length).toBeLessThan(2000);
  });
});
