import { IncomingQueue, type SocketConnection } from './incoming-queue.ts';

/**
 * A WebSocket of the browser read as a queue. A browser cannot set headers on a WebSocket: the credential is the
 * page's cookie (same origin) or a query parameter of `url`. A browser answers the server's pings itself.
 */
export function connectInBrowser(url: string): SocketConnection {
  const socket = new WebSocket(url);
  const queue = new IncomingQueue();
  let failed = false;
  socket.onmessage = (message) => {
    if (typeof message.data === 'string') queue.push({ type: 'frame', data: message.data });
  };
  socket.onerror = () => {
    failed = true;
  };
  socket.onclose = (close) => {
    const error = failed && close.code === 1006 ? new Error('the connection failed') : undefined;
    queue.push({ type: 'closed', code: close.code, reason: close.reason, error });
  };
  return {
    next: () => queue.next(),
    close() {
      if (socket.readyState === WebSocket.CONNECTING || socket.readyState === WebSocket.OPEN) socket.close(1000);
    },
  };
}
