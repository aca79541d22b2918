import type { Duplex } from 'node:stream';
import { type RawData, WebSocket } from 'ws';

/** Close codes a peer may send on the wire; for the others (reserved, e.g. 1006) the other side gets a plain close. */
const SENDABLE = (code: number) =>
  code === 1000 ||
  (code >= 3000 && code <= 4999) ||
  (code >= 1001 && code <= 1014 && code !== 1004 && code !== 1005 && code !== 1006);

/**
 * Bytes waiting to be written to one side above which the relay stops reading the other side, until what was
 * waiting is written out.
 */
export const RELAY_HIGH_WATER = 1024 * 1024;
/** What a client may send before the upstream opens (held by the app meanwhile); beyond it, a close with 1009. */
export const PRE_OPEN_LIMIT = 1024 * 1024;
/** The close code of a client that sent more than `PRE_OPEN_LIMIT` before the upstream opened: Message Too Big. */
export const CLOSE_PRE_OPEN_OVERFLOW = 1009;

/** What a relay counts of one direction. */
export interface RelayDirection {
  /** The most bytes seen waiting to be written to the receiving side, right after a frame was relayed to it. */
  peakBuffered: number;
  /** How many times reading the sending side was paused because the receiving side did not keep up. */
  pauses: number;
}

/** A relay's counters: `toClient` (the agent server's frames), `toServer` (the client's). */
export interface Relay {
  toClient: RelayDirection;
  toServer: RelayDirection;
  /** Bytes the client sent before the upstream opened (held until it did). */
  preOpenBytes: number;
}

/**
 * Relays `client` (accepted by the app) to a WebSocket opened at `upstream` with `headers`, both ways: each message
 * as it came (text or binary), in order, and a close on either side closing the other with its code and reason.
 * An upstream that cannot be reached closes the client with 1011.
 *
 * Memory is bounded whatever the peers do. When more than `RELAY_HIGH_WATER` bytes wait to be written to one side
 * (a browser that does not read, an agent server that does not), the relay stops reading the other side (`pause`:
 * its TCP window fills, so the sender is held back by TCP) and reads it again once they are written out. What
 * the client sends before the upstream opens is held up to `PRE_OPEN_LIMIT` bytes; a client sending more is
 * closed with 1009 (Message Too Big: the cause is its volume, so 1013 "try again later" would mislead it into
 * sending the same again), and the upstream connection dropped.
 */
export function pipeSocket(client: WebSocket, upstream: string, headers: Record<string, string>): Relay {
  const server = new WebSocket(upstream, { headers });
  const relay: Relay = {
    toClient: { peakBuffered: 0, pauses: 0 },
    toServer: { peakBuffered: 0, pauses: 0 },
    preOpenBytes: 0,
  };
  const queued: [RawData, boolean][] = [];
  client.on('message', (data, isBinary) => {
    if (server.readyState !== WebSocket.CONNECTING) return forward(client, server, relay.toServer, data, isBinary);
    relay.preOpenBytes += byteLength(data);
    if (relay.preOpenBytes <= PRE_OPEN_LIMIT) return void queued.push([data, isBinary]);
    queued.length = 0;
    closeWith(client, CLOSE_PRE_OPEN_OVERFLOW, Buffer.from('Too much sent before the agent server answered'));
    server.terminate();
  });
  server.on('open', () => {
    for (const [data, isBinary] of queued.splice(0)) forward(client, server, relay.toServer, data, isBinary);
  });
  server.on('message', (data, isBinary) => forward(server, client, relay.toClient, data, isBinary));
  server.on('close', (code, reason) => closeWith(client, code, reason));
  client.on('close', (code, reason) => closeWith(server, code, reason));
  server.on('error', () => closeWith(client, 1011, Buffer.from('The agent server did not answer')));
  client.on('error', () => server.terminate());
  return relay;
}

/**
 * Sends `data` from `from` on to `to`. When that leaves more than the high water mark to write to `to`, `from` is
 * paused until this frame (and so all before it) is written out: one callback per pause, none per frame.
 */
function forward(from: WebSocket, to: WebSocket, counts: RelayDirection, data: RawData, isBinary: boolean): void {
  if (to.readyState !== WebSocket.OPEN) return;
  corkForTick(to);
  const over = to.bufferedAmount + byteLength(data) > RELAY_HIGH_WATER && !from.isPaused;
  to.send(data, { binary: isBinary }, over ? () => from.resume() : undefined);
  counts.peakBuffered = Math.max(counts.peakBuffered, to.bufferedAmount);
  if (over && from.readyState === WebSocket.OPEN) {
    from.pause();
    counts.pauses++;
  }
}

const corked = new WeakSet<Duplex>();

/**
 * Holds what is sent on `to` until the next tick, so that the frames relayed from one read of the other side (ws
 * emits them in one go) leave in one write instead of one system call each. `_socket` is ws' TCP socket.
 */
function corkForTick(to: WebSocket): void {
  const socket = (to as unknown as { _socket?: Duplex })._socket;
  if (!socket || corked.has(socket)) return;
  corked.add(socket);
  socket.cork();
  process.nextTick(() => {
    corked.delete(socket);
    socket.uncork();
  });
}

function byteLength(data: RawData): number {
  if (Array.isArray(data)) return data.reduce((sum, part) => sum + part.length, 0);
  return data.byteLength;
}

function closeWith(socket: WebSocket, code: number, reason: Buffer): void {
  if (socket.readyState === WebSocket.CLOSED || socket.readyState === WebSocket.CLOSING) return;
  if (socket.readyState === WebSocket.CONNECTING) {
    socket.terminate();
    return;
  }
  // A paused side must be read again to get its answer to the close (else the close waits for ws's timeout).
  socket.resume();
  if (SENDABLE(code)) socket.close(code, reason);
  else socket.close();
}
