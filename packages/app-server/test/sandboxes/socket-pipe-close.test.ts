import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { waitUntil } from '../cache/wait.ts';
import { appRelayingTo, browser, closers, floodPaced, listening, stage, stalled, urlOf } from './socket-stage.ts';

/** How a WebSocket closed: its code and reason, once it has. */
function closeOf(socket: WebSocket) {
  const closed: { code?: number; reason?: string } = {};
  socket.once('close', (code, reason) => Object.assign(closed, { code, reason: reason.toString() }));
  return closed;
}

/** The test agent server's side of its next connection. */
function nextConnection(upstream: { once(event: 'connection', listener: (socket: WebSocket) => void): unknown }) {
  return new Promise<WebSocket>((resolve) => upstream.once('connection', resolve));
}

/** ws waits this long for the other side's answer to a close before it gives up (the relay must not need it). */
const WS_CLOSE_TIMEOUT = 30_000;

describe('the WebSocket relay closes both ends', () => {
  it('carries a close either way with its code and reason', async () => {
    const { upstream, app } = await stage();
    const first = nextConnection(upstream);
    const client = await browser(urlOf(app));
    const upstreamSide = closeOf(await first);
    client.close(4000, 'bye');
    await waitUntil('the agent server is closed', () => upstreamSide.code !== undefined);
    expect(upstreamSide).toEqual({ code: 4000, reason: 'bye' });

    const second = nextConnection(upstream);
    const other = await browser(urlOf(app));
    const browserSide = closeOf(other);
    (await second).close(4004, 'Conversation not found');
    await waitUntil('the browser is closed', () => browserSide.code !== undefined);
    expect(browserSide).toEqual({ code: 4004, reason: 'Conversation not found' });
  });

  it('closes the browser with 1011 when the agent server cannot be reached or refuses the upgrade', async () => {
    const refusing = createServer((_request, response) => response.writeHead(401).end());
    await listening(refusing.listen(0, '127.0.0.1'));
    closers.push(() => refusing.close());
    const nobody = await listening(createServer().listen(0, '127.0.0.1'));
    const unreachable = urlOf(nobody).replace(/^http/, 'ws');
    await new Promise((resolve) => nobody.close(resolve));
    for (const [reason, url] of [
      ['unreachable', unreachable],
      ['refusing', urlOf(refusing)],
    ]) {
      const { app } = await appRelayingTo(url as string);
      const closed = closeOf(await browser(urlOf(app)));
      await waitUntil(`the browser is closed (${reason})`, () => closed.code !== undefined);
      expect(closed, reason).toEqual({ code: 1011, reason: 'The agent server did not answer' });
    }
  });

  it('closes the browser when the agent server’s connection drops without a close frame', async () => {
    const { upstream, app } = await stage();
    const connected = nextConnection(upstream);
    const closed = closeOf(await browser(urlOf(app)));
    (await connected).terminate();
    await waitUntil('the browser is closed', () => closed.code !== undefined);
    // 1006 is never sent on the wire: the browser gets a close without a code.
    expect(closed.code).toBe(1005);
  });

  it('drops the agent server’s connection when the browser’s drops without a close frame', async () => {
    const { upstream, app } = await stage();
    const connected = nextConnection(upstream);
    const client = await browser(urlOf(app));
    const closed = closeOf(await connected);
    client.terminate();
    await waitUntil('the agent server is closed', () => closed.code !== undefined);
  });

  it('drops the agent server it had stopped reading (for a browser that did not read) once that browser vanishes', async () => {
    const { upstream, app, accepted } = await stage();
    let written = () => 0;
    let agentSide: WebSocket | undefined;
    upstream.on('connection', (socket) => {
      agentSide = socket;
      socket.once('message', () => {
        written = floodPaced(socket);
      });
    });
    const client = await browser(urlOf(app));
    client.pause();
    client.send('flood');
    await waitUntil(
      'the relay holds the agent server back',
      stalled(() => written()),
      30_000,
    );
    expect(accepted[0]?.relay.toClient.pauses).toBeGreaterThan(0);
    const closed = closeOf(agentSide as WebSocket);
    client.terminate();
    // At once: not after ws' close timeout, nor when the agent server gives up writing.
    await waitUntil('the agent server is closed', () => closed.code !== undefined, WS_CLOSE_TIMEOUT / 3);
    expect(agentSide?.readyState).toBe(WebSocket.CLOSED);
  }, 180_000);
});
