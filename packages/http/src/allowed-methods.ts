import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import FindMyWay from 'find-my-way';

/** The routes' methods by path, matched as Fastify's router matches (it is the same router). */
export interface AllowedMethods {
  /** The methods some route answers at the request's path; none when a route of its own method is there. */
  of(request: FastifyRequest): string[];
}

/**
 * Records every route as it is added, so that a request whose path exists under other methods only is told so:
 * 405 with `Allow`, not 404. Catch-all routes (`*`: CORS preflights) say nothing about a path and are left out.
 */
export function recordAllowedMethods(app: FastifyInstance): AllowedMethods {
  const router = FindMyWay({ maxParamLength: 100 });
  const methods = new Set<string>();
  app.addHook('onRoute', (route) => {
    if (route.url === '*' || route.url === '/*') return;
    for (const method of ([] as HTTPMethods[]).concat(route.method)) {
      // A path that is both a GET and a WebSocket route is registered once per method: the first is enough.
      if (router.hasRoute(method as never, route.url)) continue;
      router.on(method as never, route.url, () => undefined);
      methods.add(method);
    }
  });
  return {
    of(request) {
      const url = request.raw.url ?? '/';
      // A route of the request's own method at this path answered 404 itself (e.g. a file that is not there).
      if (router.find(request.method as never, url) !== null) return [];
      return [...methods].filter((method) => method !== request.method && router.find(method as never, url) !== null);
    },
  };
}

/** A 404 that is a 405 with `Allow` when the path exists under other methods. */
export function notFoundOrNotAllowed(allowed: AllowedMethods) {
  return (request: FastifyRequest, reply: FastifyReply) => {
    const others = allowed.of(request);
    if (others.length === 0) return reply.code(404).send({ detail: 'Not Found' });
    return reply
      .code(405)
      .header('allow', others.sort().join(', '))
      .send({ detail: `Method ${request.method} not allowed here (allowed: ${others.join(', ')})` });
  };
}
