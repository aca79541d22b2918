import type { AddressInfo, Server } from 'node:net';
import { afterEach, expect } from 'vitest';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import { type Relay, pipeSocket } from '../../src/sandboxes/socket-pipe.ts';

/** The stage of the WebSocket relay's tests: a test agent server, an app relaying to it, browsers, floods. */
export const FRAME = 64 * 1024;
/** Far more than the kernel's socket buffers along the way hold while nobody reads. */
export const FLOOD_FRAMES = 768;

/** Frame `n` of a flood: its number, then a byte pattern of it; every third one a text frame. */
export function frame(n: number): { data: Buffer; binary: boolean } {
  const binary = n % 3 !== 0;
  const data = Buffer.alloc(FRAME, binary ? n % 251 : 97 + (n % 26));
  data.write(String(n).padStart(8, '0'), 'latin1');
  return { data, binary };
}

export function expectFlood(received: { data: RawData; binary: boolean }[]) {
  expect(received.length).toBe(FLOOD_FRAMES);
  received.forEach(({ data, binary }, n) => {
    const expected = frame(n);
    if (!(data as Buffer).equals(expected.data) || binary !== expected.binary) {
      throw new Error(`frame ${n} differs (frame ${(data as Buffer).subarray(0, 8).toString()} came instead)`);
    }
  });
}

export function listening<T extends { address(): AddressInfo | string | null }>(server: T, event = 'listening') {
  return new Promise<T>((resolve) => (server as unknown as Server).once(event, () => resolve(server)));
}

/** The pieces of one relayed connection: the test's agent server, the app relaying to it, a browser. */
export interface Stage {
  upstream: WebSocketServer;
  app: WebSocketServer;
  /** The app's side of each accepted browser socket, and its relay. */
  accepted: { socket: WebSocket; relay: Relay }[];
}

export const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

/** An app relaying every socket it accepts to `upstreamUrl`. */
export async function appRelayingTo(upstreamUrl: string): Promise<Omit<Stage, 'upstream'>> {
  const app = await listening(new WebSocketServer({ host: '127.0.0.1', port: 0 }));
  closers.push(() => app.close());
  const accepted: Stage['accepted'] = [];
  app.on('connection', (socket) => accepted.push({ socket, relay: pipeSocket(socket, upstreamUrl, {}) }));
  return { app, accepted };
}

export async function stage(options: ConstructorParameters<typeof WebSocketServer>[0] = {}): Promise<Stage> {
  const upstream = await listening(new WebSocketServer({ host: '127.0.0.1', port: 0, ...options }));
  closers.push(() => upstream.close());
  return { upstream, ...(await appRelayingTo(urlOf(upstream))) };
}

export function urlOf(server: { address(): AddressInfo | string | null }): string {
  return `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export function browser(url: string): Promise<WebSocket> {
  const socket = new WebSocket(url);
  closers.push(() => socket.terminate());
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
}

export function collect(socket: WebSocket) {
  const received: { data: RawData; binary: boolean }[] = [];
  socket.on('message', (data, binary) => received.push({ data, binary }));
  return received;
}

/**
 * Sends the flood on `socket` frame by frame, each once the previous one is written out (as the agent server does:
 * a sender that waits for its socket), so that how far it got shows whether the receiving end lets it go on.
 */
export function floodPaced(socket: WebSocket): () => number {
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
export function stalled(progress: () => number, polls = 100): () => boolean {
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
export function sampled(measure: () => number) {
  let max = 0;
  const timer = setInterval(() => {
    max = Math.max(max, measure());
  }, 1);
  closers.push(() => clearInterval(timer));
  return () => Math.max(max, measure());
}
