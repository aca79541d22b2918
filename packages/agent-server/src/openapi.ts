import { openApiComponents, protocolSchemas } from '@bosun/protocol';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { documentErrorResponses } from './http/error-responses.ts';
import { SECURITY_SCHEMES, completeOperations } from './openapi-operations.ts';
import { SERVER_VERSION } from './routes/health.ts';

/**
 * The OpenAPI 3.1.0 document, generated from the route schemas and the protocol's shapes (one component per
 * `$id`), served at `/openapi.json`, with an interactive page at `/docs`.
 */
export async function installOpenApi(app: FastifyInstance): Promise<void> {
  for (const schema of protocolSchemas.values()) app.addSchema(schema);
  await app.register(swagger, {
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
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
