import WebSocket from 'ws';
import { connectInBrowser } from './browser-socket.ts';

/** What a connection gives, in order: text frames, then one `closed`. */
export type Incoming =
  | { type: 'frame'; data: string }
  | { type: 'closed'; code: number; reason: string; error: Error | undefined };

export interface SocketConnection {
  /** The next frame, or how the connection ended (once it has, every call answers that). */
  next(): Promise<Incoming>;
  close(): void;
}

/** Frames kept unread before the socket stops reading (TCP then holds the sender back), and when it reads again. */
const PAUSE_AT = 1000;
const RESUME_AT = 100;

/**
 * A WebSocket read as a queue (in a browser, its own WebSocket: headers cannot be sent). A connection that answers no ping within `heartbeatMs` is dropped (a silent
 * network failure is noticed).
 */
export function connect(url: string, headers: Record<string, string>, heartbeatMs: number): SocketConnection {
  if (typeof process === 'undefined' || !process.versions?.node) return connectInBrowser(url);
  const socket = new WebSocket(url, { headers });
  const queue: Incoming[] = [];
  let wake: (() => void) | undefined;
  let error: Error | undefined;
  let ended: Incoming | undefined;
  let alive = true;
  const push = (item: Incoming) => {
    queue.push(item);
    if (queue.length > PAUSE_AT && !socket.isPaused) socket.pause();
    wake?.();
    wake = undefined;
  };
  const heartbeat =
    heartbeatMs > 0
      ? setInterval(() => {
          if (!alive) return socket.terminate();
          alive = false;
          if (socket.readyState === WebSocket.OPEN) socket.ping();
        }, heartbeatMs)
      : undefined;
  socket.on('pong', () => {
    alive = true;
  });
  socket.on('message', (data) => {
    alive = true;
    push({ type: 'frame', data: data.toString() });
  });
  socket.on('error', (e) => {
    error = e;
  });
  socket.on('close', (code, reason) => {
    clearInterval(heartbeat);
    push({ type: 'closed', code, reason: reason.toString(), error });
  });
  return {
    async next() {
      if (ended) return ended;
      while (queue.length === 0) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
      const item = queue.shift() as Incoming;
      if (item.type === 'closed') ended = item;
      if (socket.isPaused && queue.length < RESUME_AT) socket.resume();
      return item;
    },
    close() {
      clearInterval(heartbeat);
      if (socket.readyState === WebSocket.CONNECTING) socket.terminate();
      else socket.close(1000);
    },
  };
}
