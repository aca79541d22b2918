import { installOpenApi as installDocument } from '@bosun/http';
import { protocolSchemas } from '@bosun/protocol';
import type { FastifyInstance } from 'fastify';
import { SERVER_TITLE, SERVER_VERSION } from './server-info.ts';

/** How `/api/v1` callers prove who they are: an API key (`sk-bosun-...`) in any of three headers. */
export const SECURITY_SCHEMES = {
  ApiKeyBearer: { type: 'http', scheme: 'bearer', description: 'An API key as `Authorization: Bearer sk-bosun-...`.' },
  SessionApiKey: { type: 'apiKey', in: 'header', name: 'X-Session-API-Key', description: 'An API key.' },
  AccessToken: { type: 'apiKey', in: 'header', name: 'X-Access-Token', description: 'An API key.' },
  SandboxSessionKey: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Session-API-Key',
    description: 'A sandbox’s session key: how its agent server calls the webhooks.',
  },
};

const API_SECURITY = ['ApiKeyBearer', 'SessionApiKey', 'AccessToken'].map((name) => ({ [name]: [] }));
const WEBHOOK_SECURITY = [{ SandboxSessionKey: [] }];

/** The routes a sandbox's agent server calls with its session key: the webhooks, and its secrets' lookups. */
const isSandboxCall = (path: string) =>
  path.startsWith('/api/v1/webhooks/') || /^\/api\/v1\/sandboxes\/[^/]+\/settings\/secrets/.test(path);

/**
 * The app server's OpenAPI 3.1.0 document (`/openapi.json`, `/docs`): every route registered from now on, with
 * the protocol's shapes the routes use as components. A route may name its own `operationId` and `security`.
 */
export async function installOpenApi(app: FastifyInstance): Promise<void> {
  await installDocument(app, {
    info: {
      title: SERVER_TITLE,
      version: SERVER_VERSION,
      description:
        'Bosun app server: users, organizations, API keys, settings and secrets; conversations in sandboxes.',
    },
    schemas: protocolSchemas.values(),
    onlyReferenced: true,
    securitySchemes: SECURITY_SCHEMES,
    securityOf: (path) =>
      isSandboxCall(path) ? WEBHOOK_SECURITY : path.startsWith('/api/') ? API_SECURITY : undefined,
  });
}
