import type { ApiKey, ApiKeyCreate } from '@bosun/protocol';
import { Type } from '@sinclair/typebox';
import type { ApiRoutes } from '../../http/api-routes.ts';
import { forbidden, invalid, notFound, shape } from '../../http/replies.ts';
import { routeOptions } from '../../http/route-options.ts';
import { principalOf } from '../authenticate.ts';
import { rateLimited } from '../rate-limits.ts';
import type { ApiKeyRecord } from '../stores.ts';
import type { IdentityRouteDeps } from './deps.ts';

const route = routeOptions('API keys');

const KeyParams = Type.Object(
  { key_id: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);

export const apiKeyToWire = (key: ApiKeyRecord): ApiKey => ({
  id: key.id,
  name: key.name,
  prefix: key.display_prefix,
  created_at: key.created_at,
  last_used_at: null,
  expires_at: key.expires_at,
  org_id: key.org_id,
});

/** The caller's API keys: made (the key shown once), listed (never the key), deleted. */
export function apiKeyRoutes(deps: IdentityRouteDeps): ApiRoutes {
  return (app) => {
    const { apiKeys, organizations } = deps;

    app.post<{ Body: ApiKeyCreate }>(
      '/keys',
      {
        ...route('Create an API key: the answer holds the key, shown this once', {
          body: shape('ApiKeyCreate'),
          response: { 201: 'ApiKeyCreated', 403: 'HTTPError' },
        }),
        preHandler: rateLimited(deps.rateLimiter, deps.rateLimits, 'api_key_create'),
      },
      async (request, reply) => {
        const { userId } = principalOf(request);
        const { name, expires_at: expiresAt = null, org_id: orgId = null } = request.body;
        if (expiresAt !== null && Date.parse(expiresAt) <= Date.now()) {
          return invalid(reply, ['body', 'expires_at'], 'The expiry must be in the future');
        }
        if (orgId !== null && !(await organizations.role(orgId.toLowerCase(), userId))) {
          return forbidden(reply, 'Not a member of the organization to bind the key to');
        }
        const { key, record } = await apiKeys.create({
          userId,
          name: name ?? 'API key',
          orgId: orgId?.toLowerCase() ?? null,
          expiresAt: expiresAt === null ? null : new Date(expiresAt).toISOString(),
        });
        return reply.code(201).send({ ...apiKeyToWire(record), key });
      },
    );

    app.get(
      '/keys',
      route('The caller’s API keys (without the keys themselves)', { response: { 200: Type.Array(shape('ApiKey')) } }),
      async (request) => (await apiKeys.list(principalOf(request).userId)).map(apiKeyToWire),
    );

    app.delete<{ Params: { key_id: string } }>(
      '/keys/:key_id',
      route('Delete an API key: it stops working at once', { params: KeyParams, response: { 200: 'EditResponse' } }),
      async (request, reply) => {
        const deleted = await apiKeys.delete(principalOf(request).userId, request.params.key_id);
        return deleted ? { message: 'API key deleted' } : notFound(reply, 'API key');
      },
    );
  };
}
