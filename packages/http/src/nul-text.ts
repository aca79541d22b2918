import type { FastifyInstance, FastifyRequest } from 'fastify';
import { InputError } from './errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's body may hold U+0000 (it stores it escaped, in JSON text): only its path and query are checked. */
    nulInBody?: boolean;
  }
}

type Loc = (string | number)[];

const MAX_PLACES = 20;
/** The 422 item of a text holding U+0000 at `loc`. */
export function nulTextProblem(loc: Loc) {
  return { loc, msg: 'Text must not contain the NUL character (U+0000)', type: 'value_error' };
}

/** Where in `value` a string (or an object's key) holds U+0000, under `at`; at most `MAX_PLACES`. */
function nulPlaces(value: unknown, at: Loc, out: Loc[] = []): Loc[] {
  if (out.length >= MAX_PLACES) return out;
  if (typeof value === 'string') {
    if (value.includes('\u0000')) out.push(at);
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => nulPlaces(item, [...at, i], out));
  } else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (key.includes('\u0000')) out.push([...at, key]);
      else nulPlaces(child, [...at, key], out);
    }
  }
  return out;
}

/**
 * Refuses, with a 422 at its place, a request whose path, query or body holds U+0000 in a string: text columns of
 * PostgreSQL cannot hold it (the insert failed, a 500), and no name, id or setting needs it. A hook of the routes
 * registered on `app` from now on, after validation (a wrong type is answered as such first); a route marked
 * `nulInBody` (its body is stored as JSON text, which escapes it) has only its path and query checked.
 */
export function refuseNulText(app: FastifyInstance): void {
  app.addHook('preHandler', async (request: FastifyRequest) => {
    const places = [
      ...nulPlaces(request.params, ['path']),
      ...nulPlaces(request.query, ['query']),
      ...(request.routeOptions.config.nulInBody ? [] : nulPlaces(request.body, ['body'])),
    ];
    if (places.length > 0) throw new InputError(places.map(nulTextProblem));
  });
}
