import { type Socket, createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { RawData, WebSocket } from 'ws';
import {
  CLOSE_PRE_OPEN_OVERFLOW,
  PRE_OPEN_LIMIT,
  RELAY_HIGH_WATER,
  type Relay,
} from '../../src/sandboxes/socket-pipe.ts';
import { waitUntil } from '../cache/wait.ts';
import {
  FLOOD_FRAMES,
  FRAME,
  appRelayingTo,
  browser,
  closers,
  collect,
  expectFlood,
  floodPaced,
  listening,
  sampled,
  stage,
  stalled,
  urlOf,
} from './socket-stage.ts';

describe('the WebSocket relay holds little whatever its peers do', () => {
  it('stops reading the agent server while a browser does not read, then delivers everything in order', async () => {
    const { upstream, app, accepted } = await stage();
    let written = () => 0;
    upstream.on('connection', (socket) => {
      socket.once('message', () => {
        written = floodPaced(socket);
      });
    });
    const client = await browser(urlOf(app));
    client.pause();
    const received = collect(client);
    client.send('flood');

    // Until the agent server cannot write on (the app holds it back) or the app holds much more than its bound.
    const appSide = sampled(() => accepted[0]?.socket.bufferedAmount ?? 0);
    const held = stalled(() => written());
    await waitUntil('the flood is held somewhere', () => appSide() > 4 * RELAY_HIGH_WATER || held(), 30_000);
    expect(appSide()).toBeLessThanOrEqual(RELAY_HIGH_WATER + 2 * FRAME);
    expect(written()).toBeLessThan(FLOOD_FRAMES);
    const { toClient } = accepted[0]?.relay as Relay;
    expect(toClient.pauses).toBeGreaterThan(0);
    expect(toClient.peakBuffered).toBeLessThanOrEqual(RELAY_HIGH_WATER + 2 * FRAME);

    client.resume();
    await waitUntil('the browser has every frame', () => received.length >= FLOOD_FRAMES, 60_000);
    expectFlood(received);
    expect(toClient.peakBuffered).toBeLessThanOrEqual(RELAY_HIGH_WATER + 2 * FRAME);
  }, 90_000);

  it('stops reading a browser while the agent server does not read, then delivers everything in order', async () => {
    const { upstream, app, accepted } = await stage();
    let reader: WebSocket | undefined;
    const received: { data: RawData; binary: boolean }[] = [];
    upstream.on('connection', (socket) => {
      socket.pause();
      reader = socket;
      socket.on('message', (data, binary) => received.push({ data, binary }));
    });
    const client = await browser(urlOf(app));
    await waitUntil('the relay reached the agent server', () => reader !== undefined);
    const written = floodPaced(client);

    const relay = () => accepted[0]?.relay.toServer;
    const held = stalled(written);
    // Until the browser cannot write on: held back by the app, or done as the app took it all in.
    await waitUntil('the browser can write no more', held, 30_000);
    expect(written()).toBeLessThan(FLOOD_FRAMES);
    expect(relay()?.pauses).toBeGreaterThan(0);
    expect(relay()?.peakBuffered).toBeLessThanOrEqual(RELAY_HIGH_WATER + 2 * FRAME);

    reader?.resume();
    await waitUntil('the agent server has every frame', () => received.length >= FLOOD_FRAMES, 60_000);
    expectFlood(received);
    expect(relay()?.peakBuffered).toBeLessThanOrEqual(RELAY_HIGH_WATER + 2 * FRAME);
  }, 90_000);

  it('holds what a browser sends before the agent server answers, and sends it on in order once it does', async () => {
    let admit: ((ok: boolean) => void) | undefined;
    const verifyClient = (_info: unknown, done: (ok: boolean) => void) => {
      admit = done;
    };
    const { upstream, app, accepted } = await stage({ verifyClient });
    const received: { data: RawData; binary: boolean }[] = [];
    upstream.on('connection', (socket) => socket.on('message', (data, binary) => received.push({ data, binary })));
    const client = await browser(urlOf(app));
    const frames = Array.from({ length: 12 }, (_, n) => `early ${n}`);
    for (const text of frames) client.send(text);
    const held = frames.reduce((sum, text) => sum + text.length, 0);
    await waitUntil('the relay holds every early frame', () => accepted[0]?.relay.preOpenBytes === held);
    expect(admit).toBeDefined();
    admit?.(true);
    await waitUntil('the agent server has every early frame', () => received.length === frames.length);
    expect(received.map(({ data, binary }) => [data.toString(), binary])).toEqual(frames.map((text) => [text, false]));
  });

  it(`closes a browser that sends more than it may before the agent server answers with ${CLOSE_PRE_OPEN_OVERFLOW}`, async () => {
    // An agent server that accepts the connection and never answers the handshake.
    const sockets: Socket[] = [];
    let dropped = 0;
    const silent = createServer((socket) => {
      sockets.push(socket);
      socket.resume();
      socket.on('close', () => dropped++);
    });
    await listening(silent.listen(0, '127.0.0.1'));
    closers.push(() => {
      for (const socket of sockets) socket.destroy();
      silent.close();
    });
    const { app } = await appRelayingTo(urlOf(silent));
    const client = await browser(urlOf(app));
    let closedWith: number | undefined;
    client.once('close', (code) => {
      closedWith = code;
    });
    const chunk = Buffer.alloc(FRAME, 1);
    for (let sent = 0; sent <= PRE_OPEN_LIMIT; sent += FRAME) client.send(chunk);
    await waitUntil('the browser is closed', () => closedWith !== undefined, 10_000);
    expect(closedWith).toBe(CLOSE_PRE_OPEN_OVERFLOW);
    // The half-open connection to the agent server is dropped too.
    await waitUntil('the agent server connection is dropped', () => sockets.length === 1 && dropped === 1);
  });
});
