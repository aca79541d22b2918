import type { FastifyInstance, HTTPMethods } from 'fastify';
import type { ApiRoutes } from './api-routes.ts';

interface NotApplicable {
  routes: [HTTPMethods, string][];
  detail: string;
  /** Called by sandboxes, not users: answered without a user's credentials. */
  fromSandboxes?: boolean;
}

/**
 * OpenHands `/api/v1` routes its clients call that Bosun has no counterpart for: each answers 501 with why and what
 * to use instead, never a silent 404. They are left out of the OpenAPI document (they are not operations of
 * Bosun); the README's compatibility table lists them.
 */
const NOT_APPLICABLE: NotApplicable[] = [
  {
    routes: [['POST', '/app-conversations/:conversation_id/switch_acp_model']],
    detail:
      'Bosun runs no ACP agents, so there is no ACP model to switch: switch a conversation’s LLM to one of your LLM ' +
      'profiles with POST /api/v1/app-conversations/{conversation_id}/switch_profile, or set llm_model in ' +
      'POST /api/v1/settings for new conversations.',
  },
  {
    routes: [['GET', '/webhooks/secrets']],
    fromSandboxes: true,
    detail:
      'Bosun has no secrets webhook: a sandbox reads its owner’s secrets with its session key ' +
      '(X-Session-API-Key) from GET /api/v1/sandboxes/{sandbox_id}/settings/secrets (their names) and ' +
      'GET /api/v1/sandboxes/{sandbox_id}/settings/secrets/{name} (a value, as LookupSecret reads it).',
  },
];

/** Every route of `NOT_APPLICABLE`, under `/api/v1` (for tests and the compatibility table). */
export const NOT_APPLICABLE_ROUTES = NOT_APPLICABLE.flatMap(({ routes }) =>
  routes.map(([method, url]) => `${method} /api/v1${url.replace(/:(\w+)/g, '{$1}')}`),
);

/** The `/api/v1` module of those routes: a user's calls are authenticated first, as every other's. */
export const notApplicableApi: ApiRoutes = (api: FastifyInstance) => {
  for (const { routes, detail, fromSandboxes } of NOT_APPLICABLE) {
    for (const [method, url] of routes) {
      api.route({
        method,
        url,
        schema: { hide: true },
        ...(fromSandboxes ? { config: { public: true } } : {}),
        handler: async (_request, reply) => reply.code(501).send({ detail }),
      });
    }
  }
};
