import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { call, getWithBody } from './support/http.ts';
import { serverWithConversationPerFile } from './support/shared-server.ts';

const shared = serverWithConversationPerFile();

/** Sends `head` (and `body`) as bytes on a fresh connection: requests no HTTP client would build. */
function rawRequest(head: string, body = ''): Promise<{ status: number; body: unknown; text: string }> {
  const { hostname, port } = new URL(shared.server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(`${head}\r\n\r\n${body}`));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const response = Buffer.concat(chunks).toString('utf8');
      const [statusLine = '', ...rest] = response.split('\r\n');
      const text = rest.join('\r\n').split('\r\n\r\n').slice(1).join('\r\n\r\n');
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      resolve({ status: Number(statusLine.split(' ')[1]), body: parsed, text });
    });
  });
}

/** Asserts the one error shape: `{"detail": "..."}`, or the list of `{loc, msg, type}` for a 422. */
function expectErrorShape(reply: { status: number; body: unknown; text: string }, status: number): void {
  expect(reply.status, reply.text).toBe(status);
  if (status === 422) {
    expect(reply.body).toEqual({
      detail: expect.arrayContaining([{ loc: expect.any(Array), msg: expect.any(String), type: expect.any(String) }]),
    });
  } else {
    expect(reply.body).toEqual({ detail: expect.any(String) });
  }
}

describe('errors Fastify and Node answer by themselves come in the server shape', () => {
  it('a malformed percent-encoding in the path is a 422 about the path', async () => {
    for (const path of ['/api/conversations/%ff%fe', '/alive%ff', '/api/conversations/%zz', '/%']) {
      const reply = await call(shared.server.url, path);
      expectErrorShape(reply, 422);
      expect((reply.body as { detail: { loc: unknown }[] }).detail[0]?.loc).toEqual(['path']);
    }
  });

  it('a path parameter over 100 characters is a 414 with a detail', async () => {
    expectErrorShape(await call(shared.server.url, `/api/conversations/${'a'.repeat(120)}`), 414);
    expectErrorShape(
      await call(shared.server.url, `/api/conversations/${shared.conversationId}/events/${'e'.repeat(200)}`),
      414,
    );
  });

  it('an unsupported media type is a 415 with a detail', async () => {
    const reply = await call(shared.server.url, '/api/conversations', {
      method: 'POST',
      raw: '<a/>',
      headers: { 'content-type': 'text/xml' },
    });
    expectErrorShape(reply, 415);
    expectErrorShape(
      await call(shared.server.url, '/api/conversations', {
        method: 'POST',
        raw: '{}',
        headers: { 'content-type': ';;' },
      }),
      415,
    );
  });

  it('a body over the limit is a 413 with a detail', async () => {
    const reply = await rawRequest(
      'POST /api/conversations HTTP/1.1\r\nHost: x\r\nConnection: close\r\n' +
        'Content-Type: application/json\r\nContent-Length: 40000000',
    );
    expectErrorShape(reply, 413);
  });

  it('headers over the size limit are a 431 with a detail', async () => {
    expectErrorShape(await rawRequest(`GET /alive HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(40_000)}`), 431);
  });

  it.each([
    ['a NUL byte in a header', 'GET /alive HTTP/1.1\r\nHost: x\r\nX-Nul: a\0b'],
    ['an unknown method', 'FROB /alive HTTP/1.1\r\nHost: x'],
    ['a malformed request line', 'GET /alive HTTP/9\r\nHost: x'],
    ['a non-numeric Content-Length', 'POST /api/conversations HTTP/1.1\r\nHost: x\r\nContent-Length: abc'],
    [
      'both Content-Length and chunked',
      'POST /api/conversations HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked',
    ],
  ])('%s is a 400 with a detail', async (_name, head) => {
    expectErrorShape(await rawRequest(head), 400);
  });

  it('CONNECT is a 405 with a detail (Node closed the connection without an answer)', async () => {
    expectErrorShape(await rawRequest('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443'), 405);
  });

  it.each([
    ['an Upgrade that is not websocket', '/alive', 'Upgrade: foo'],
    ['a WebSocket upgrade without a key', '/sockets/events/00000000-0000-4000-8000-000000000000', 'Upgrade: websocket'],
    [
      'a WebSocket upgrade of an unknown version',
      '/sockets/events/00000000-0000-4000-8000-000000000000',
      'Upgrade: websocket\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 99',
    ],
  ])('%s is a 400 with a detail (the WebSocket library answered in HTML)', async (_name, path, headers) => {
    expectErrorShape(await rawRequest(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\n${headers}`), 400);
  });

  it('malformed JSON and prototype poisoning are 422 json_invalid', async () => {
    for (const raw of ['{bad', '{"__proto__":{"polluted":1}}', '{"a":{"constructor":{"prototype":{}}}}']) {
      const reply = await call(shared.server.url, '/api/conversations', {
        method: 'POST',
        raw,
        headers: { 'content-type': 'application/json' },
      });
      expectErrorShape(reply, 422);
      expect((reply.body as { detail: { type: string }[] }).detail[0]?.type).toBe('json_invalid');
    }
  });

  it('a method a route does not have is a 405 with Allow, an unknown route a 404, each with a detail', async () => {
    for (const method of ['PUT', 'PATCH', 'OPTIONS', 'PROPFIND']) {
      const reply = await call(shared.server.url, '/api/conversations', { method });
      expectErrorShape(reply, 405);
      expect((reply.headers as Headers).get('allow')).toBe('GET, POST');
    }
    expectErrorShape(await getWithBody(shared.server.url, '/nowhere', '{'), 404);
  });
});

describe('the OpenAPI document', () => {
  it('documents every 4xx with one error component, and 422 with the validation list', async () => {
    const doc = (await call<Record<string, unknown>>(shared.server.url, '/openapi.json')).body;
    const schemas = (doc.components as { schemas: Record<string, unknown> }).schemas;
    expect(schemas.HTTPError).toMatchObject({ type: 'object', required: ['detail'] });
    const paths = doc.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>;
    let operations = 0;
    for (const [path, item] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(item)) {
        operations++;
        const responses = operation.responses as Record<string, { content?: Record<string, { schema: unknown }> }>;
        expect(responses['4XX'], `${method} ${path}`).toBeDefined();
        for (const [status, response] of Object.entries(responses)) {
          if (!status.startsWith('4')) continue;
          const ref = status === '422' ? 'HTTPValidationError' : 'HTTPError';
          expect(response.content?.['application/json']?.schema, `${method} ${path} ${status}`).toEqual({
            $ref: `#/components/schemas/${ref}`,
          });
        }
      }
    }
    expect(operations).toBeGreaterThan(20);
  });
});
