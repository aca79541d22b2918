import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

export const SESSION_KEY_HEADER = 'x-session-api-key';

/** Whether `candidate` is one of `keys` (compared in constant time). An empty key list disables auth. */
export function isValidSessionKey(keys: readonly string[], candidate: unknown): boolean {
  if (keys.length === 0) return true;
  if (typeof candidate !== 'string') return false;
  const given = Buffer.from(candidate);
  return keys.some((key) => {
    const expected = Buffer.from(key);
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
}

/** Every `/api/*` request needs `X-Session-API-Key` when session keys are configured. */
export function installSessionAuth(app: FastifyInstance, keys: readonly string[]): void {
  if (keys.length === 0) return;
  app.addHook('onRequest', async (request, reply) => {
    // The matched route too: the router decodes the path, so `/%61pi/...` reaches an `/api/` route.
    const route = request.routeOptions.url;
    if (!request.url.startsWith('/api/') && !route?.startsWith('/api/')) return;
    if (!isValidSessionKey(keys, request.headers[SESSION_KEY_HEADER])) {
      return reply.code(401).send({ detail: 'Unauthorized' });
    }
  });
}
