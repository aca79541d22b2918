import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Sandbox, Sandboxes } from '../index.ts';

const KEY_HEADER = 'x-session-api-key';

declare module 'fastify' {
  interface FastifyRequest {
    /** The sandbox a webhook comes from (its session key), once `sandboxOnly` let the request in. */
    sandbox?: Sandbox;
  }
}

/**
 * A hook that lets in only a running sandbox calling with its session key (`X-Session-API-Key`): anyone else is
 * a 401 before their body is even read. The sandbox is then `request.sandbox`.
 */
export function sandboxOnly(sandboxes: Sandboxes) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const key = request.headers[KEY_HEADER];
    const sandbox = typeof key === 'string' && key.length > 0 ? await sandboxes.bySessionKey(key) : undefined;
    if (!sandbox) {
      return reply.code(401).send({ detail: 'Not a running sandbox: send its session key as X-Session-API-Key' });
    }
    request.sandbox = sandbox;
  };
}
