import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { writeError } from './framework-errors.ts';

/** How long a client may take over what it sends, in milliseconds (0: no limit). */
export interface ConnectionTimeouts {
  /** The request line and headers must have arrived within it. */
  headersMs: number;
  /** The whole request, body included, must have arrived within it (generous: uploads are large). */
  requestMs: number;
  /** A body that stops coming (no byte for this long) is cut. */
  bodyIdleMs: number;
  /** An idle connection between two requests is closed after it. */
  keepAliveMs: number;
  /** A WebSocket is pinged this often, and cut when the previous ping has no answer (0: never pinged). */
  socketPingMs: number;
}

export const DEFAULT_TIMEOUTS: ConnectionTimeouts = {
  headersMs: 30_000,
  requestMs: 3_600_000,
  bodyIdleMs: 60_000,
  keepAliveMs: 72_000,
  socketPingMs: 30_000,
};

/**
 * Fastify's options for the timeouts Node enforces: headers, whole request and keep-alive. Node looks at its
 * connections for them on an interval: a quarter of the shortest, so a short timeout is not overrun by 30 s.
 * What is already answered (a long download) or upgraded (a WebSocket) is not cut by any of them.
 */
export function timeoutOptions(timeouts: ConnectionTimeouts): Partial<FastifyServerOptions> {
  const { headersMs, requestMs, keepAliveMs } = timeouts;
  // Node refuses a headers timeout longer than the request timeout: the request's then bounds both.
  const headers = requestMs > 0 && (headersMs === 0 || headersMs > requestMs) ? requestMs : headersMs;
  const shortest = Math.min(...[headers, requestMs].filter((ms) => ms > 0), 120_000);
  return {
    requestTimeout: requestMs,
    keepAliveTimeout: keepAliveMs,
    http: {
      headersTimeout: headers,
      requestTimeout: requestMs,
      connectionsCheckingInterval: Math.max(100, Math.min(30_000, Math.floor(shortest / 4))),
    },
  } as Partial<FastifyServerOptions>;
}

/**
 * A body that stops coming is answered 408 and its connection closed, after `idleMs` without a byte: a client
 * that sends less than its Content-Length would otherwise hold the connection until the whole-request timeout.
 * A slow upload that keeps coming is never cut by it, nor a body the server itself is slow to read.
 */
export function installBodyIdleTimeout(app: FastifyInstance, idleMs: number): void {
  if (idleMs <= 0) return;
  app.addHook('onRequest', async (request, reply) => {
    const raw = request.raw;
    const headers = raw.headers;
    const hasBody =
      headers['transfer-encoding'] !== undefined ||
      (headers['content-length'] !== undefined && headers['content-length'] !== '0');
    const socket = raw.socket;
    // An injected request (light-my-request) has no real socket, nor a client to wait for.
    if (!hasBody || raw.complete || typeof socket?.setTimeout !== 'function') return;
    // Once the answer is written, the socket's timeout is Node's keep-alive timeout: left as Node set it.
    const restore = () => {
      raw.removeListener('timeout', onIdle);
      if (!socket.destroyed && !reply.raw.writableFinished) socket.setTimeout(app.server.timeout);
    };
    // Node emits `timeout` on a request whose body is still incomplete; listened to, it leaves the socket to us.
    const onIdle = () => {
      // Not read on our side (a slow decoder, a proxy waiting for its upstream): the client is not the one stalling.
      if (raw.readableFlowing !== true || raw.readableLength > 0) {
        socket.setTimeout(idleMs);
        return;
      }
      restore();
      request.log.info('request body stalled: answered 408');
      if (reply.raw.headersSent) socket.destroy();
      else writeError(socket, 408, `No byte of the request body came for ${idleMs / 1000} s`);
    };
    raw.on('timeout', onIdle);
    raw.once('end', restore);
    raw.once('close', restore);
    reply.raw.once('finish', () => raw.removeListener('timeout', onIdle));
    socket.setTimeout(idleMs);
  });
}
