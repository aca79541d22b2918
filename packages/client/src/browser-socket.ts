import type { Incoming, SocketConnection } from './socket-connection.ts';

/**
 * A WebSocket of the browser read as a queue. A browser cannot set headers on a WebSocket: the credential is the
 * page's cookie (same origin) or a query parameter of `url`. A browser answers the server's pings itself.
 */
export function connectInBrowser(url: string): SocketConnection {
  const socket = new WebSocket(url);
  const queue: Incoming[] = [];
  let wake: (() => void) | undefined;
  let ended: Incoming | undefined;
  let failed = false;
  const push = (item: Incoming) => {
    queue.push(item);
    wake?.();
    wake = undefined;
  };
  socket.onmessage = (message) => {
    if (typeof message.data === 'string') push({ type: 'frame', data: message.data });
  };
  socket.onerror = () => {
    failed = true;
  };
  socket.onclose = (close) => {
    const error = failed && close.code === 1006 ? new Error('the connection failed') : undefined;
    push({ type: 'closed', code: close.code, reason: close.reason, error });
  };
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
      return item;
    },
    close() {
      if (socket.readyState === WebSocket.CONNECTING || socket.readyState === WebSocket.OPEN) socket.close(1000);
    },
  };
}
