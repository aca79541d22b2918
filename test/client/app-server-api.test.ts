import { readFile } from 'node:fs/promises';
import { AppServerClient } from '@bosun/client';
import { describe, expect, it } from 'vitest';
import { apiModuleOf } from '../../scripts/client-api/api-module.ts';
import { APP_SERVER_API_FILE, appServerApiModule } from '../../scripts/client-api/generate.ts';

describe("the client's types of the app server's operations", () => {
  it('are those of the server’s OpenAPI document as it is now (else: npm run generate:client)', async () => {
    const written = await readFile(APP_SERVER_API_FILE, 'utf8');
    expect(written, 'the routes changed: run `npm run generate:client` and commit the file').toBe(
      await appServerApiModule(),
    );
  });

  it('refuse a document with a reference to a shape it does not hold', () => {
    const document = {
      paths: { '/x': { get: { responses: { 200: { content: { 'application/json': { schema: { $ref: 'X#' } } } } } } } },
    };
    expect(() => apiModuleOf(document, { name: 'Api', description: 'x', command: 'x' })).toThrow(
      '$ref X# names no component of the document',
    );
  });

  it('type each call by its path and method: parameters, query, body and answer', () => {
    const client = new AppServerClient({ baseUrl: 'http://127.0.0.1:9' });
    // Only checked by the compiler: nothing is sent.
    const calls = () => [
      client.get('/api/v1/sandboxes/search', { query: { limit: 5 } }).then((page) => page.items[0]?.status),
      client.post('/api/v1/sandboxes/{sandbox_id}/pause', { params: { sandbox_id: 's' } }),
      // @ts-expect-error: a path the server does not have
      client.get('/api/v1/nowhere'),
      // @ts-expect-error: the path parameter is missing
      client.post('/api/v1/sandboxes/{sandbox_id}/pause'),
      // @ts-expect-error: a query parameter the operation does not take
      client.get('/api/v1/sandboxes/search', { query: { size: 5 } }),
      // @ts-expect-error: the wrong method for the path
      client.delete('/api/v1/sandboxes/search'),
    ];
    expect(calls).toBeTypeOf('function');
  });
});
