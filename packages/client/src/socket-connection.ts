import WebSocket from 'ws';
import { connectInBrowser } from './browser-socket.ts';
import { type Incoming, IncomingQueue, type SocketConnection } from './incoming-queue.ts';

export type { Incoming, SocketConnection } from './incoming-queue.ts';

/** Frames kept unread before the socket stops reading (TCP then holds the sender back), and when it reads again. */
const PAUSE_AT = 1000;
const RESUME_AT = 100;

/**
 * A WebSocket read as a queue (in a browser, its own WebSocket: headers cannot be sent). A connection that answers
 * no ping within `heartbeatMs` is dropped (a silent network failure is noticed).
 */
export function connect(url: string, headers: Record<string, string>, heartbeatMs: number): SocketConnection {
  if (typeof process === 'undefined' || !process.versions?.node) return connectInBrowser(url);
  const socket = new WebSocket(url, { headers });
  const queue = new IncomingQueue();
  let error: Error | undefined;
  let alive = true;
  const push = (item: Incoming) => {
    queue.push(item);
    if (queue.length > PAUSE_AT && !socket.isPaused) socket.pause();
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
      const item = await queue.next();
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
