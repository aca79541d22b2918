import type { FastifyInstance } from 'fastify';
import { InputError } from './errors.ts';
import { nestsDeeperThan, tooDeep } from './json-depth.ts';

/**
 * How request bodies are read:
 * - a request without a body has none, whatever its Content-Type says (many HTTP clients send
 *   `Content-Type: application/json` on every request, GETs included); a route that needs a body then answers
 *   422 "Field required";
 * - JSON is parsed as Fastify does (prototype poisoning refused), and refused when it nests deeper than
 *   `MAX_JSON_DEPTH`.
 */
export function installJsonBody(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const headers = request.raw.headers;
    const length = headers['content-length'];
    if (headers['transfer-encoding'] === undefined && (length === undefined || length === '0')) {
      delete headers['content-type'];
    }
  });
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    // A chunked body that turned out empty; or no route to read it: that is a 404, whatever the body.
    if (body.length === 0 || request.is404) return done(null, undefined);
    parseJson(request, body as string, (error, value) => {
      if (error) return done(error, undefined);
      if (nestsDeeperThan(value)) return done(new InputError([tooDeep(['body'])]), undefined);
      done(null, value);
    });
  });
}
