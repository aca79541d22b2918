import { IncomingQueue, type SocketConnection } from './incoming-queue.ts';

/**
 * A WebSocket of the browser read as a queue. A browser cannot set headers on a WebSocket: the credential is the
 * page's cookie (same origin) or a query parameter of `url`. A browser answers the server's pings itself, but cannot
 * ping: a connection its network dropped silently (asleep, another Wi-Fi) would look open until TCP gives up. So
 * when the network comes back (`online`), the connection is given up at once and its follower opens a new one,
 * resuming after the last event it had.
 */
export function connectInBrowser(url: string): SocketConnection {
  const socket = new WebSocket(url);
  const queue = new IncomingQueue();
  let failed = false;
  const events = globalThis as unknown as Partial<Pick<EventTarget, 'addEventListener' | 'removeEventListener'>>;
  const detach = () => {
    events.removeEventListener?.('online', onOnline);
    socket.onmessage = null;
    socket.onclose = null;
    socket.onerror = null;
  };
  const onOnline = () => {
    detach();
    // Its closing handshake could wait on the dead connection: the queue hears of the end now.
    socket.close(1000);
    queue.push({ type: 'closed', code: 1001, reason: 'the network came back', error: undefined });
  };
  events.addEventListener?.('online', onOnline);
  socket.onmessage = (message) => {
    if (typeof message.data === 'string') queue.push({ type: 'frame', data: message.data });
  };
  socket.onerror = () => {
    failed = true;
  };
  socket.onclose = (close) => {
    detach();
    const error = failed && close.code === 1006 ? new Error('the connection failed') : undefined;
    queue.push({ type: 'closed', code: close.code, reason: close.reason, error });
  };
  return {
    next: () => queue.next(),
    close() {
      events.removeEventListener?.('online', onOnline);
      if (socket.readyState === WebSocket.CONNECTING || socket.readyState === WebSocket.OPEN) socket.close(1000);
    },
  };
}
