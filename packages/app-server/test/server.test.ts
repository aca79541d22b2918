import { connect } from 'node:net';
import { HttpError, NotFoundError } from '@bosun/http';
import { Type } from '@sinclair/typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiRoutes } from '../src/index.ts';
import { type ListeningApp, call, listenApp } from './support/app.ts';

/** The app server answers bad input in the one error shape it shares with the agent server (`@bosun/http`). */

const Widget = Type.Object(
  { name: Type.String({ minLength: 1 }), size: Type.Integer({ minimum: 1, default: 1 }) },
  { additionalProperties: false },
);

/** A route module as the identity and settings modules are: registered under /api/v1 by one line in a list. */
const widgets: ApiRoutes = (api) => {
  api.post('/widgets', { schema: { summary: 'Create widget', body: Widget } }, async (request, reply) =>
    reply.code(201).send(request.body),
  );
  api.get(
    '/widgets/:widget_id',
    { schema: { summary: 'Get widget', params: Type.Object({ widget_id: Type.String({ format: 'uuid' }) }) } },
    async () => {
      throw new NotFoundError('Widget not found');
    },
  );
  api.get(
    '/open',
    { schema: { summary: 'Open', operationId: 'openhands_own_id_api_v1_open_get', security: [] } },
    async () => ({ open: true }),
  );
  api.get('/busy', { schema: { summary: 'Busy' } }, async () => {
    throw new HttpError(429, 'Too many requests', { 'retry-after': '7' });
  });
  api.get('/broken', { schema: { summary: 'Broken' } }, async () => {
    throw new Error('a bug');
  });
};

let app: ListeningApp;
beforeAll(async () => {
  app = await listenApp({ apiRoutes: [widgets] });
});
afterAll(async () => {
  await app.close();
});

const post = (body: string, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  call(app.url, '/api/v1/widgets', { method: 'POST', body, headers });

function raw(request: string): Promise<string> {
  const { port } = new URL(app.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.end(request));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString()));
  });
}

describe('app server routes under /api/v1', () => {
  it('registers a route module under the prefix, with body defaults filled in', async () => {
    const created = await post(JSON.stringify({ name: 'w' }));
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ name: 'w', size: 1 });
    expect((await call(app.url, '/widgets', { method: 'POST' })).status).toBe(404);
  });

  it('answers invalid bodies 422 with loc, msg and type', async () => {
    const extra = await post(JSON.stringify({ name: 'w', colour: 'red' }));
    expect(extra).toMatchObject({
      status: 422,
      body: { detail: [{ loc: ['body', 'colour'], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' }] },
    });
    const wrongType = await post(JSON.stringify({ name: 'w', size: '3' }));
    expect(wrongType.status).toBe(422);
    expect((wrongType.body as { detail: { loc: unknown[] }[] }).detail[0]?.loc).toEqual(['body', 'size']);
    const missing = await post('', {});
    expect(missing).toMatchObject({ status: 422, body: { detail: [{ loc: ['body'], type: 'missing' }] } });
  });

  it('answers malformed and too deep JSON 422, never 500', async () => {
    const syntax = await post('{"name": ');
    expect(syntax).toMatchObject({ status: 422, body: { detail: [{ loc: ['body'], type: 'json_invalid' }] } });
    const deep = await post(`${'['.repeat(500)}${']'.repeat(500)}`);
    expect(deep).toMatchObject({ status: 422, body: { detail: [{ loc: ['body'], type: 'json_invalid' }] } });
  });

  it('cuts echoed values to size', async () => {
    const reply = await post(JSON.stringify({ name: 'w', [`k${'x'.repeat(5000)}`]: 1 }));
    expect(reply.status).toBe(422);
    expect(reply.text.length).toBeLessThan(1000);
  });

  it('answers an invalid path parameter 422 about the path', async () => {
    const reply = await call(app.url, '/api/v1/widgets/not-a-uuid');
    expect(reply).toMatchObject({ status: 422, body: { detail: [{ loc: ['path', 'widget_id'] }] } });
  });

  it('answers unknown resources and unknown paths 404 {"detail": ...}', async () => {
    expect(await call(app.url, '/api/v1/widgets/0196f4d0-0000-7000-8000-000000000000')).toMatchObject({
      status: 404,
      body: { detail: 'Widget not found' },
    });
    for (const path of ['/api/v1/nothing', '/nothing', '/api/v2/widgets']) {
      expect(await call(app.url, path)).toMatchObject({ status: 404, body: { detail: 'Not Found' } });
    }
  });

  it('sends the headers of an HttpError (Retry-After on a 429)', async () => {
    const reply = await call(app.url, '/api/v1/busy');
    expect(reply).toMatchObject({ status: 429, body: { detail: 'Too many requests' } });
    expect(reply.headers.get('retry-after')).toBe('7');
  });

  it('answers an unexpected error 500 with an error id, and no internals', async () => {
    const reply = await call(app.url, '/api/v1/broken');
    expect(reply.status).toBe(500);
    expect(reply.body).toEqual({ detail: 'Internal Server Error', error_id: expect.any(String) });
  });

  it('answers what the framework refuses in the same shape (415, bad encoding, 431)', async () => {
    expect(await post('<a/>', { 'content-type': 'text/xml' })).toMatchObject({
      status: 415,
      body: { detail: expect.any(String) },
    });
    expect(await call(app.url, '/api/v1/%ff')).toMatchObject({ status: 422, body: { detail: [{ loc: ['path'] }] } });
    const tooLarge = await raw(`GET /alive HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(tooLarge).toMatch(/^HTTP\/1\.1 431 /);
    expect(tooLarge).toContain('{"detail":"Request header fields too large"}');
  });
});

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1.0 titled "Bosun App Server", with every route and the error components', async () => {
    const { status, body } = await call(app.url, '/openapi.json');
    expect(status).toBe(200);
    const document = body as {
      openapi: string;
      info: { title: string };
      paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>>;
      components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
    };
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.title).toBe('Bosun App Server');
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/alive', '/health', '/ready', '/server_info', '/api/v1/widgets']),
    );
    const create = document.paths['/api/v1/widgets']?.post;
    expect(create?.operationId).toBe('create_widget_api_v1_widgets_post');
    expect(create?.responses['4XX']).toEqual({
      description: expect.any(String),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/HTTPError' } } },
    });
    expect(JSON.stringify(create)).toContain('#/components/schemas/HTTPValidationError');
    expect(Object.keys(document.components.schemas).sort()).toEqual([
      'HTTPError',
      'HTTPValidationError',
      'ValidationError',
    ]);
    expect(Object.keys(document.components.securitySchemes).length).toBeGreaterThan(0);
    expect((create as { security?: unknown }).security).toBeDefined();
    expect((document.paths['/ready']?.get as { security?: unknown }).security).toBeUndefined();
    // A route may name its own operation id (OpenHands' one) and say that it needs no credentials.
    expect(document.paths['/api/v1/open']?.get).toMatchObject({
      operationId: 'openhands_own_id_api_v1_open_get',
      security: [],
    });
  });

  it('is browsable at /docs', async () => {
    const page = await call(app.url, '/docs/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
  });
});
