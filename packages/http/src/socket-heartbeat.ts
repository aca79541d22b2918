import type { FastifyInstance } from 'fastify';

/** What pinging a WebSocket needs of it (a `ws` socket). */
interface PingedSocket {
  ping(): void;
  terminate(): void;
  on(event: 'pong', listener: () => void): unknown;
  once(event: 'close', listener: () => void): unknown;
}

/** The server the WebSocket plugin decorates the app with, as far as its connections go. */
interface SocketServer {
  on(event: 'connection', listener: (socket: PingedSocket) => void): unknown;
}

/**
 * Pings every WebSocket of `app` each `intervalMs` (0: never). A proxy in front (a Kubernetes ingress closes a
 * connection idle for 60 s) then never sees a quiet conversation's socket as idle, and a client gone without a
 * close (a laptop asleep, a network dropped) is cut when it has not answered the previous ping: its socket, and
 * what follows a conversation for it, do not linger. Browsers and `ws` clients answer pings on their own.
 */
export function installSocketHeartbeat(app: FastifyInstance, intervalMs: number): void {
  if (intervalMs <= 0) return;
  // The WebSocket server exists once its plugin is registered, which servers do after creating the app.
  app.addHook('onReady', async () => {
    const server = (app as { websocketServer?: SocketServer }).websocketServer;
    server?.on('connection', (socket) => heartbeat(socket, intervalMs));
  });
}

/** Pings `socket` each `intervalMs`; terminates it when the previous ping has had no answer by then. */
function heartbeat(socket: PingedSocket, intervalMs: number): void {
  let answered = true;
  socket.on('pong', () => {
    answered = true;
  });
  const timer = setInterval(() => {
    if (!answered) {
      clearInterval(timer);
      socket.terminate();
      return;
    }
    answered = false;
    socket.ping();
  }, intervalMs);
  timer.unref();
  socket.once('close', () => clearInterval(timer));
}
