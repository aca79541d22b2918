import { openApiComponents, protocolSchemas } from '@bosun/protocol';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifySchema } from 'fastify';
import { documentErrorResponses } from './http/error-responses.ts';
import { SECURITY_SCHEMES, completeOperations } from './openapi-operations.ts';
import { SERVER_VERSION } from './server-info.ts';

interface DocumentedRoute {
  method: string | string[];
  url: string;
  schema?: FastifySchema;
}

/**
 * The OpenAPI 3.1.0 document, generated from the route schemas and the protocol's shapes (one component per
 * `$id`), served at `/openapi.json`, with an interactive page at `/docs`.
 *
 * Swagger, its page and what they load are a good part of start-up, and few clients ask for them: they load on
 * the first request for either, in an instance of their own given every route's schema.
 */
export async function installOpenApi(app: FastifyInstance): Promise<void> {
  for (const schema of protocolSchemas.values()) app.addSchema(schema);
  let docs: Promise<FastifyInstance> | undefined;
  const routes: DocumentedRoute[] = [];
  const docsApp = () => {
    docs ??= documentationApp(routes);
    return docs;
  };
  app.get('/openapi.json', { schema: { hide: true } }, async () => (await docsApp()).swagger());
  const page = async (request: FastifyRequest, reply: FastifyReply) => {
    const answer = await (await docsApp()).inject({ method: 'GET', url: request.url });
    const headers = { ...answer.headers };
    for (const name of ['connection', 'keep-alive', 'transfer-encoding', 'date']) delete headers[name];
    return reply.code(answer.statusCode).headers(headers).send(answer.rawPayload);
  };
  app.get('/docs', { schema: { hide: true } }, page);
  app.get('/docs/*', { schema: { hide: true } }, page);
  // Every route registered from now on is documented (the two above are not).
  app.addHook('onRoute', (route) => {
    const { method, url, schema } = route;
    routes.push({ method, url, ...(schema ? { schema } : {}) });
  });
}

/** An app with the server's routes (handlers that are never called) and swagger and its page. */
async function documentationApp(routes: readonly DocumentedRoute[]): Promise<FastifyInstance> {
  const [{ default: swagger }, { default: swaggerUi }] = await Promise.all([
    import('@fastify/swagger'),
    import('@fastify/swagger-ui'),
  ]);
  const docs = Fastify({ exposeHeadRoutes: false });
  docs.addHttpMethod('GET', { hasBody: true, overrideExisting: true });
  // Nothing is validated or serialized here: compiling the large schemas would only cost time.
  docs.setValidatorCompiler(() => () => true);
  docs.setSerializerCompiler(() => (data) => JSON.stringify(data));
  for (const schema of protocolSchemas.values()) docs.addSchema(schema);
  await docs.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Agent Server',
        version: SERVER_VERSION,
        description: 'Bosun agent server: conversations, their events, and live streams of them.',
      },
    },
    convertConstToEnum: false,
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (json.$id as string) || `def-${i}` },
    transformObject: (documentObject) => {
      // The protocol's shapes, with their internal references pointing at components.
      if (!('openapiObject' in documentObject)) return documentObject.swaggerObject;
      const document = documentObject.openapiObject;
      document.components = { ...document.components, schemas: openApiComponents() as never };
      // Operation ids, security and optional defaulted parameters, so that generated clients work.
      document.components.securitySchemes = SECURITY_SCHEMES as never;
      completeOperations(document.paths as never);
      documentErrorResponses(document as never);
      return document;
    },
  });
  await docs.register(swaggerUi, { routePrefix: '/docs' });
  const unused = async () => undefined;
  for (const route of routes) {
    docs.route({
      method: route.method,
      url: route.url,
      ...(route.schema ? { schema: route.schema } : {}),
      handler: unused,
    });
  }
  await docs.ready();
  return docs;
}
