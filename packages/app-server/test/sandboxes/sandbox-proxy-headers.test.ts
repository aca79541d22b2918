import { createHash } from 'node:crypto';
import { type IncomingHttpHeaders, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import type { ProxyTargets } from '../../src/sandboxes/proxy-targets.ts';
import { sandboxProxy } from '../../src/sandboxes/routes/sandbox-proxy.ts';
import { type ListeningApp, listenApp } from '../support/app.ts';

/**
 * The proxy itself against a header-echo server standing in for an agent server: what reaches it (headers, path,
 * query, body), what comes back (status, headers, streamed bodies), WebSocket frames both ways, and a 502 for a
 * server that does not answer. The sandbox lookup is `targets` here (the real one is tested with real sandboxes in
 * sandbox-proxy.test.ts): `echo` with key `k` goes to the echo server under `/base`, `root` to its root, `gone` to a
 * closed port.
 */
interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  sha256: string;
  bytes: number;
}

let echo: Server;
let echoUrl: string;
let closedUrl: string;
let proxy: ListeningApp;
const sockets: IncomingHttpHeaders[] = [];

beforeAll(async () => {
  echo = createServer((request, response) => {
    const hash = createHash('sha256');
    let bytes = 0;
    request.on('data', (chunk: Buffer) => {
      hash.update(chunk);
      bytes += chunk.length;
    });
    request.on('end', () => {
      if (request.url?.startsWith('/base/big')) {
        response.writeHead(200, { 'content-type': 'application/octet-stream', 'x-agent': 'yes' });
        for (let i = 0; i < 64; i += 1) response.write(Buffer.alloc(64 * 1024, i));
        return response.end();
      }
      const seen: Seen = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        bytes,
        sha256: hash.digest('hex'),
      };
      response.writeHead(201, { 'content-type': 'application/json', 'x-agent': 'yes' });
      response.end(JSON.stringify(seen));
    });
  });
  const wss = new WebSocketServer({ server: echo });
  wss.on('connection', (socket, request) => {
    sockets.push(request.headers);
    socket.send(JSON.stringify({ url: request.url }));
    socket.on('message', (data, isBinary) => socket.send(data, { binary: isBinary }));
    socket.on('message', (data) => {
      if (data.toString() === 'close me') socket.close(4004, 'Conversation not found');
    });
  });
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
  echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}/base`;
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  closedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
  await new Promise((resolve) => closed.close(resolve));
  const targets: ProxyTargets = async (id, key) => {
    if (id === 'gone') return { agentServerUrl: closedUrl };
    if (id === 'root' && key === 'k') return { agentServerUrl: new URL(echoUrl).origin };
    if (id !== 'echo') return { status: 410, detail: 'The sandbox no longer exists' };
    return key === 'k' ? { agentServerUrl: echoUrl } : { status: 401, detail: 'The session key is needed' };
  };
  proxy = await listenApp({ apiRoutes: [], socketRoutes: [sandboxProxy(targets)] });
});
afterAll(async () => {
  await proxy?.close();
  await new Promise((resolve) => echo?.close(resolve));
});

it('strips the app’s credentials, keeps the session key, adds X-Forwarded-*, streams the body both ways', async () => {
  const body = Buffer.alloc(3 * 1024 * 1024 + 7, 9);
  const response = await fetch(`${proxy.url}/sandboxes/echo/agent/api/file/upload?path=%2Fw%2Fa%20b.txt&x=1&x=2`, {
    method: 'POST',
    headers: {
      'x-session-api-key': 'k',
      cookie: 'bosun_session=app-session-token; other=1',
      authorization: 'Bearer app-api-key',
      'x-access-token': 'app-access-token',
      'content-type': 'application/octet-stream',
      'x-custom': 'kept',
    },
    body,
  });
  expect(response.status).toBe(201);
  expect(response.headers.get('x-agent')).toBe('yes');
  const seen = (await response.json()) as Seen;
  expect(seen.method).toBe('POST');
  expect(seen.url).toBe('/base/api/file/upload?path=%2Fw%2Fa%20b.txt&x=1&x=2');
  expect(seen.bytes).toBe(body.length);
  expect(seen.sha256).toBe(createHash('sha256').update(body).digest('hex'));
  expect(seen.headers).toMatchObject({
    'x-session-api-key': 'k',
    'x-custom': 'kept',
    'x-forwarded-for': '127.0.0.1',
    'x-forwarded-host': new URL(proxy.url).host,
    'x-forwarded-proto': 'http',
    'x-forwarded-prefix': '/sandboxes/echo/agent',
  });
  for (const name of ['cookie', 'authorization', 'x-access-token']) expect(seen.headers[name], name).toBeUndefined();

  // The key in the query (a browser's way) is forwarded as given; other methods too.
  const put = await fetch(`${proxy.url}/sandboxes/echo/agent/api/x?session_api_key=k`, { method: 'DELETE' });
  expect(((await put.json()) as Seen).url).toBe('/base/api/x?session_api_key=k');

  // A path that reads as another host when resolved stays a path of the sandbox's origin.
  const hostLike = await fetch(`${proxy.url}/sandboxes/root/agent//127.0.0.1:1/x`, {
    headers: { 'x-session-api-key': 'k' },
  });
  expect(((await hostLike.json()) as Seen).url).toBe('//127.0.0.1:1/x');

  const download = await fetch(`${proxy.url}/sandboxes/echo/agent/big`, { headers: { 'x-session-api-key': 'k' } });
  const bytes = Buffer.from(await download.arrayBuffer());
  expect(bytes.length).toBe(64 * 64 * 1024);
  expect(bytes[64 * 1024 * 63]).toBe(63);
});

it('refuses before forwarding (the lookup’s 4xx as {"detail"}); an agent server that does not answer is 502', async () => {
  const refused = await fetch(`${proxy.url}/sandboxes/echo/agent/api/x`, { headers: { 'x-session-api-key': 'no' } });
  expect(refused.status).toBe(401);
  expect(await refused.json()).toEqual({ detail: 'The session key is needed' });
  const unknown = await fetch(`${proxy.url}/sandboxes/other/agent/api/x`, { method: 'POST', body: 'x' });
  expect(unknown.status).toBe(410);
  expect(await unknown.json()).toEqual({ detail: 'The sandbox no longer exists' });
  const invalidId = await fetch(`${proxy.url}/sandboxes/a.b/agent/api/x`);
  expect(invalidId.status).toBe(404);
  const gone = await fetch(`${proxy.url}/sandboxes/gone/agent/api/x`);
  expect(gone.status).toBe(502);
  expect(await gone.json()).toEqual({ detail: "The sandbox's agent server did not answer" });
  expect(sockets).toEqual([]);
});

it('relays a WebSocket both ways: frames, the query, the close code; never the app’s cookie', async () => {
  const url = `${proxy.url.replace(/^http/, 'ws')}/sandboxes/echo/agent/sockets/events/abc?resend_all=true&session_api_key=k`;
  const socket = new WebSocket(url, { headers: { cookie: 'bosun_session=app-session-token' } });
  const frames: string[] = [];
  const closed = new Promise<number>((resolve) => {
    socket.on('message', (data) => {
      frames.push(data.toString());
      if (frames.length === 1) socket.send('hello');
      if (frames.length === 2) socket.send('close me');
    });
    socket.on('close', (code) => resolve(code));
  });
  expect(await closed).toBe(4004);
  expect(JSON.parse(frames[0] as string)).toEqual({
    url: '/base/sockets/events/abc?resend_all=true&session_api_key=k',
  });
  expect(frames[1]).toBe('hello');
  expect(sockets[0]?.cookie).toBeUndefined();
  expect(sockets[0]).toMatchObject({ 'x-forwarded-prefix': '/sandboxes/echo/agent' });

  const hostLike = new WebSocket(
    `${proxy.url.replace(/^http/, 'ws')}/sandboxes/root/agent//127.0.0.1:1/s?session_api_key=k`,
  );
  const hostLikeFrame = await new Promise<string>((resolve) =>
    hostLike.once('message', (data) => resolve(data.toString())),
  );
  hostLike.close();
  expect(JSON.parse(hostLikeFrame)).toEqual({ url: '//127.0.0.1:1/s?session_api_key=k' });

  const refused = new WebSocket(`${proxy.url.replace(/^http/, 'ws')}/sandboxes/echo/agent/sockets/events/abc`);
  refused.on('error', () => {});
  const status = await new Promise<number>((resolve) => {
    refused.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
  });
  expect(status).toBe(401);
  refused.terminate();
  expect(sockets).toHaveLength(2);
});
