import { createServer } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BosunTooLargeError, HttpClient } from '../src/index.ts';

const CHUNK = Buffer.alloc(64 * 1024, 'x');
/** How many bytes the chunked answer was written before the client closed it. */
let streamed = 0;

/** `/sized/<n>`: n bytes with their length; `/endless`: chunks with no length until the client goes away. */
const server = createServer((request, response) => {
  const sized = /^\/sized\/(\d+)$/.exec(request.url ?? '');
  if (sized) {
    response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.alloc(Number(sized[1]), 'y'));
    return;
  }
  response.writeHead(200, { 'content-type': 'application/octet-stream' });
  streamed = 0;
  const more = () => {
    while (!response.destroyed && streamed < 64 * 1024 * 1024) {
      streamed += CHUNK.byteLength;
      if (!response.write(CHUNK)) return void response.once('drain', more);
    }
    response.end();
  };
  more();
});
let baseUrl: string;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

it('takes an answer up to maxBytes and refuses a larger one, declared or streamed, without reading it all', async () => {
  const http = new HttpClient({ baseUrl });
  expect((await http.bytes({ method: 'GET', path: '/sized/1000', maxBytes: 1000 })).bytes.byteLength).toBe(1000);
  const declared = await http.bytes({ method: 'GET', path: '/sized/1001', maxBytes: 1000 }).catch((e: unknown) => e);
  expect(declared).toBeInstanceOf(BosunTooLargeError);
  expect(declared).toMatchObject({ maxBytes: 1000, method: 'GET', path: '/sized/1001' });
  const endless = await http.bytes({ method: 'GET', path: '/endless', maxBytes: 100_000 }).catch((e: unknown) => e);
  expect(endless).toBeInstanceOf(BosunTooLargeError);
  expect(streamed).toBeLessThan(64 * 1024 * 1024);
  // A transport of its own (fetch) reads the answer whole: refused all the same.
  const fetched = new HttpClient({ baseUrl, fetch: (url, init) => fetch(url, init) });
  const refused = await fetched.bytes({ method: 'GET', path: '/sized/2000', maxBytes: 1000 }).catch((e: unknown) => e);
  expect(refused).toBeInstanceOf(BosunTooLargeError);
  expect((await http.bytes({ method: 'GET', path: '/sized/5' })).bytes.byteLength).toBe(5);
});
