import { HTTPError, HTTPValidationError, type Named, ValidationError, withRefPrefix } from '@bosun/protocol';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifySchema } from 'fastify';
import { documentErrorResponses } from './error-responses.ts';
import { type OperationRules, completeOperations } from './openapi-operations.ts';
import { restoreReferenceSiblings } from './openapi-parameters.ts';
import { referencedComponents } from './openapi-references.ts';

export interface OpenApiOptions extends OperationRules {
  info: { title: string; version: string; description: string };
  /** The named shapes the routes reference by `$id`: each becomes a component of the document. */
  schemas: Iterable<Named>;
  /** Only the components some operation uses (transitively), not every shape of `schemas`. */
  onlyReferenced?: boolean;
  securitySchemes?: Record<string, unknown>;
}

interface DocumentedRoute {
  method: string | string[];
  url: string;
  schema?: FastifySchema;
}

type Document = { paths?: Record<string, Record<string, unknown>>; components?: Record<string, unknown> };

/**
 * The OpenAPI 3.1.0 document, generated from the route schemas and the named shapes (one component per `$id`),
 * served at `/openapi.json`, with an interactive page at `/docs`. Every route registered after this call is
 * documented (unless its schema says `hide`).
 *
 * Swagger, its page and what they load are a good part of start-up, and few clients ask for them: they load on
 * the first request for either, in an instance of their own given every route's schema.
 */
export async function installOpenApi(app: FastifyInstance, options: OpenApiOptions): Promise<void> {
  const schemas = new Map<string, Named>();
  for (const schema of [...options.schemas, ValidationError, HTTPValidationError, HTTPError]) {
    schemas.set(schema.$id, schema);
  }
  for (const schema of schemas.values()) app.addSchema(schema);
  let docs: Promise<FastifyInstance> | undefined;
  const routes: DocumentedRoute[] = [];
  const docsApp = () => {
    docs ??= documentationApp(routes, schemas, options);
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
  app.addHook('onRoute', (route) => {
    const { method, url, schema } = route;
    routes.push({ method, url, ...(schema ? { schema } : {}) });
  });
}

/** An app with the server's routes (handlers that are never called) and swagger and its page. */
async function documentationApp(
  routes: readonly DocumentedRoute[],
  schemas: ReadonlyMap<string, Named>,
  options: OpenApiOptions,
): Promise<FastifyInstance> {
  const [{ default: swagger }, { default: swaggerUi }] = await Promise.all([
    import('@fastify/swagger'),
    import('@fastify/swagger-ui'),
  ]);
  const docs = Fastify({ exposeHeadRoutes: false });
  docs.addHttpMethod('GET', { hasBody: true, overrideExisting: true });
  // Nothing is validated or serialized here: compiling the large schemas would only cost time.
  docs.setValidatorCompiler(() => () => true);
  docs.setSerializerCompiler(() => (data) => JSON.stringify(data));
  for (const schema of schemas.values()) docs.addSchema(schema);
  await docs.register(swagger, {
    openapi: { openapi: '3.1.0', info: options.info },
    convertConstToEnum: false,
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (json.$id as string) || `def-${i}` },
    transformObject: (documentObject) => {
      if (!('openapiObject' in documentObject)) return documentObject.swaggerObject;
      const document = documentObject.openapiObject as Document;
      // The named shapes, with their internal references pointing at components.
      const components: Record<string, unknown> = {};
      for (const [id, schema] of schemas) components[id] = withRefPrefix(schema, '#/components/schemas/');
      // Operation ids, security and optional defaulted parameters, so that generated clients work.
      restoreReferenceSiblings(document.paths as never, routes as never);
      completeOperations(document.paths as never, options);
      documentErrorResponses(document);
      document.components = {
        ...document.components,
        schemas: options.onlyReferenced ? referencedComponents(document.paths ?? {}, components) : components,
        ...(options.securitySchemes ? { securitySchemes: options.securitySchemes } : {}),
      };
      return document as never;
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
