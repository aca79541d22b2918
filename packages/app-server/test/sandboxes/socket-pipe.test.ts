import { type AddressInfo, type Server, type Socket, createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import {
  CLOSE_PRE_OPEN_OVERFLOW,
  PRE_OPEN_LIMIT,
  RELAY_HIGH_WATER,
  type Relay,
  pipeSocket,
} from '../../src/sandboxes/socket-pipe.ts';
import { waitUntil } from '../cache/wait.ts';

const FRAME = 64 * 1024;
/** Far more than the kernel's socket buffers along the way hold while nobody reads. */
const FLOOD_FRAMES = 768;

/** Frame `n` of a flood: its number, then a byte pattern of it; every third one a text frame. */
function frame(n: number): { data: Buffer; binary: boolean } {
  const binary = n % 3 !== 0;
  const data = Buffer.alloc(FRAME, binary ? n % 251 : 97 + (n % 26));
  data.write(String(n).padStart(8, '0'), 'latin1');
  return { data, binary };
}

function expectFlood(received: { data: RawData; binary: boolean }[]) {
  expect(received.length).toBe(FLOOD_FRAMES);
  received.forEach(({ data, binary }, n) => {
    const expected = frame(n);
    if (!(data as Buffer).equals(expected.data) || binary !== expected.binary) {
      throw new Error(`frame ${n} differs (frame ${(data as Buffer).subarray(0, 8).toString()} came instead)`);
    }
  });
}

function listening<T extends { address(): AddressInfo | string | null }>(server: T, event = 'listening') {
  return new Promise<T>((resolve) => (server as unknown as Server).once(event, () => resolve(server)));
}

/** The pieces of one relayed connection: the test's agent server, the app relaying to it, a browser. */
interface Stage {
  upstream: WebSocketServer;
  app: WebSocketServer;
  /** The app's side of each accepted browser socket, and its relay. */
  accepted: { socket: WebSocket; relay: Relay }[];
}

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

/** An app relaying every socket it accepts to `upstreamUrl`. */
async function appRelayingTo(upstreamUrl: string): Promise<Omit<Stage, 'upstream'>> {
  const app = await listening(new WebSocketServer({ host: '127.0.0.1', port: 0 }));
  closers.push(() => app.close());
  const accepted: Stage['accepted'] = [];
  app.on('connection', (socket) => accepted.push({ socket, relay: pipeSocket(socket, upstreamUrl, {}) }));
  return { app, accepted };
}

async function stage(options: ConstructorParameters<typeof WebSocketServer>[0] = {}): Promise<Stage> {
  const upstream = await listening(new WebSocketServer({ host: '127.0.0.1', port: 0, ...options }));
  closers.push(() => upstream.close());
  return { upstream, ...(await appRelayingTo(urlOf(upstream))) };
}

function urlOf(server: { address(): AddressInfo | string | null }): string {
  return `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function browser(url: string): Promise<WebSocket> {
  const socket = new WebSocket(url);
  closers.push(() => socket.terminate());
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
}

function collect(socket: WebSocket) {
  const received: { data: RawData; binary: boolean }[] = [];
  socket.on('message', (data, binary) => received.push({ data, binary }));
  return received;
}

/**
 * Sends the flood on `socket` frame by frame, each once the previous one is written out (as the agent server does:
 * a sender that waits for its socket), so that how far it got shows whether the receiving end lets it go on.
 */
function floodPaced(socket: WebSocket): () => number {
  let written = 0;
  const next = () => {
    if (written === FLOOD_FRAMES || socket.readyState !== WebSocket.OPEN) return;
    const { data, binary } = frame(written);
    socket.send(data, { binary }, (error) => {
      if (error) return;
      written++;
      next();
    });
  };
  next();
  return () => written;
}

/** A check that holds once `progress` has begun and not moved for `polls` checks in a row (the sender is held back). */
function stalled(progress: () => number, polls = 100): () => boolean {
  let last = -1;
  let still = 0;
  return () => {
    const now = progress();
    still = now === last ? still + 1 : 0;
    last = now;
    return now > 0 && still >= polls;
  };
}

/** The most `measure` was at any sample (taken every millisecond until `stop`). */
function sampled(measure: () => number) {
  let max = 0;
  const timer = setInterval(() => {
    max = Math.max(max, measure());
  }, 1);
  closers.push(() => clearInterval(timer));
  return () => Math.max(max, measure());
}

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
