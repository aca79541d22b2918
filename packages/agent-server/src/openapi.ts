import { installOpenApi as installDocument } from '@bosun/http';
import { agentServerSchemas } from '@bosun/protocol';
import type { FastifyInstance } from 'fastify';
import { OPERATION_NAMES, OPTIONAL_BODIES, SECURITY_SCHEMES, securityOf } from './openapi-operations.ts';
import { SERVER_VERSION } from './server-info.ts';

/**
 * The agent server's OpenAPI 3.1.0 document (`/openapi.json`, `/docs`): every route registered from now on,
 * with the protocol's shapes as components.
 */
export async function installOpenApi(app: FastifyInstance): Promise<void> {
  await installDocument(app, {
    info: {
      title: 'Agent Server',
      version: SERVER_VERSION,
      description: 'Bosun agent server: conversations, their events, and live streams of them.',
    },
    schemas: agentServerSchemas.values(),
    securitySchemes: SECURITY_SCHEMES,
    operationNames: OPERATION_NAMES,
    optionalBodies: OPTIONAL_BODIES,
    securityOf,
  });
}
