import { type IncomingHttpHeaders, type ServerResponse, createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppServerClient, BosunApiError, HttpClient, pathOf, queryString } from '../src/index.ts';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A server that records each request and answers as `answer` says for its path. */
const seen: Seen[] = [];
const answers: Record<string, (response: ServerResponse) => void> = {
  '/ready': (r) => r.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ready"}'),
  '/teapot': (r) => r.writeHead(418, { 'content-type': 'text/plain' }).end('short and stout'),
  '/conflict': (r) => r.writeHead(409, { 'content-type': 'application/json' }).end('{"detail":"busy"}'),
  '/empty': (r) => r.writeHead(204).end(),
};
const server = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk: Buffer) => {
    body += chunk.toString();
  });
  request.on('end', () => {
    seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    (answers[path] ?? ((r) => r.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}')))(response);
  });
});
let baseUrl: string;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('HttpClient', () => {
  it('encodes path parameters and repeats array query parameters, leaving out undefined ones', async () => {
    expect(pathOf('/a/{id}/b/{name}', { id: 'x/y', name: 'é ü' })).toBe('/a/x%2Fy/b/%C3%A9%20%C3%BC');
    expect(() => pathOf('/a/{id}')).toThrow('missing path parameter id');
    expect(queryString({ ids: ['a', 'b'], limit: 5, page_id: undefined, status: null })).toBe('?ids=a&ids=b&limit=5');
    expect(queryString({})).toBe('');

    const http = new HttpClient({ baseUrl: `${baseUrl}/prefix/` });
    expect(await http.json({ method: 'POST', path: '/things', query: { q: 'a b' }, body: { n: 1 } })).toEqual({
      ok: true,
    });
    const request = seen.at(-1) as Seen;
    expect(request).toMatchObject({ method: 'POST', url: '/prefix/things?q=a+b', body: '{"n":1}' });
    expect(request.headers['content-type']).toBe('application/json');
  });

  it('keeps a non-JSON error body as the detail, and a JSON one’s detail', async () => {
    const http = new HttpClient({ baseUrl });
    const teapot = (await http.json({ method: 'GET', path: '/teapot' }).catch((e: unknown) => e)) as BosunApiError;
    expect(teapot).toBeInstanceOf(BosunApiError);
    expect(teapot).toMatchObject({ status: 418, detail: 'short and stout', method: 'GET', path: '/teapot' });
    expect(teapot.message).toBe('GET /teapot: 418 short and stout');
    expect(teapot.validationErrors).toEqual([]);
    await expect(http.json({ method: 'DELETE', path: '/conflict' })).rejects.toMatchObject({
      status: 409,
      detail: 'busy',
    });
    expect(await http.json({ method: 'GET', path: '/empty' })).toBeUndefined();
  });
});

describe('AppServerClient', () => {
  it('sends the API key as a Bearer token and the organization as X-Org-Id', async () => {
    const client = new AppServerClient({ baseUrl, apiKey: 'sk-bosun-abc', orgId: 'org-1' });
    expect(await client.ready()).toEqual({ status: 'ready' });
    const { headers } = seen.at(-1) as Seen;
    expect(headers.authorization).toBe('Bearer sk-bosun-abc');
    expect(headers['x-org-id']).toBe('org-1');
    await new AppServerClient({ baseUrl }).alive();
    expect((seen.at(-1) as Seen).headers.authorization).toBeUndefined();
  });

  it('uses the fetch it is given', async () => {
    const calls: string[] = [];
    const client = new AppServerClient({
      baseUrl,
      fetch: (url, init) => {
        calls.push(`${init.method} ${url}`);
        return fetch(url, init);
      },
    });
    expect(await client.ready()).toEqual({ status: 'ready' });
    expect(calls).toEqual([`GET ${baseUrl}/ready`]);
  });
});
