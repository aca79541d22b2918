import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route is a WebSocket: it may upgrade the connection (set for every route as it is added). */
    acceptsUpgrade?: boolean;
  }
}

/**
 * A request asking to upgrade (`Upgrade: websocket`) on a route that is no WebSocket is refused with a 400,
 * without switching protocols (the WebSocket plugin would otherwise answer 101 and close at once). Routes are
 * marked as they are added, from their `websocket` option or `wsHandler`.
 */
export function refuseUpgradesOfPlainRoutes(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const options = route as typeof route & { websocket?: boolean; wsHandler?: unknown };
    const acceptsUpgrade = options.websocket === true || typeof options.wsHandler === 'function';
    route.config = { ...route.config, acceptsUpgrade };
  });
  app.addHook('onRequest', async (request, reply) => {
    // `upgrade` is set only when the server is upgrading the connection (a WebSocket plugin listens for it).
    if (!(request.raw as { upgrade?: boolean }).upgrade || request.is404) return;
    if (request.routeOptions.config.acceptsUpgrade) return;
    // Nothing closes an upgrade's connection after a plain answer: it is closed once the answer is written.
    const socket = request.raw.socket;
    reply.raw.once('finish', () => socket.end());
    return reply
      .code(400)
      .header('connection', 'close')
      .send({ detail: `${request.method} ${request.routeOptions.url ?? ''} does not accept a protocol upgrade` });
  });
}
