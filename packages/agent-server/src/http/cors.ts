import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';

/** The origin as browsers send it in `Origin` (lowercase, no default port); `*` stays `*`. */
export function normalizeOrigin(origin: string): string {
  if (origin === '*') return origin;
  const url = new URL(origin);
  if (!['http:', 'https:'].includes(url.protocol) || url.origin === 'null') {
    throw new Error(`allow_cors_origins: not an http(s) origin: ${origin}`);
  }
  return url.origin;
}

/**
 * Lets web pages of `origins` (normalized, see `normalizeOrigin`) call the server (`*`: any page): preflights
 * are answered before authentication (a browser sends no `X-Session-API-Key` with one), and every answer to a
 * listed origin, errors included, carries `Access-Control-Allow-Origin`. Nothing changes when `origins` is empty.
 * Install before authentication.
 */
export async function installCors(app: FastifyInstance, origins: readonly string[]): Promise<void> {
  if (origins.length === 0) return;
  await app.register(cors, {
    origin: origins.includes('*') ? '*' : [...origins],
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    maxAge: 600,
    // An OPTIONS request that is not a preflight gets the same empty answer, not a text/plain 400.
    strictPreflight: false,
  });
}

/**
 * Browsers do not apply CORS to WebSockets: when `origins` are set (and not `*`), a handshake whose `Origin` is
 * not one of them is refused (403), so a page elsewhere cannot follow a conversation. Clients that are not
 * browsers send no `Origin` and are let through. Install after the WebSocket plugin (whose hook must have seen
 * the request for the refused connection to be closed).
 */
export function installWebSocketOriginCheck(app: FastifyInstance, origins: readonly string[]): void {
  const allowed = new Set(origins);
  if (allowed.size === 0 || allowed.has('*')) return;
  app.addHook('onRequest', async (request, reply) => {
    if (request.headers.upgrade?.toLowerCase() !== 'websocket') return;
    const { origin } = request.headers;
    if (origin === undefined || allowed.has(origin)) return;
    return reply.code(403).send({ detail: `Origin not allowed: ${origin}` });
  });
}
