import type { WebClientConfig } from '@bosun/protocol';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { ApiRoutes } from '../../http/api-routes.ts';
import { callV1, everyItem, legacyRoute, openShape, relay, succeeded } from './forward.ts';

/** The agents a conversation may run: Bosun's agent server runs one, which OpenHands' clients call so. */
const AGENTS = ['CodeActAgent'];
/** The settings' `security_analyzer` values the conversations' agent servers know. */
const SECURITY_ANALYZERS = ['llm'];

/** The V1 web client configuration in the upper-case shape of OpenHands' `GET /api/options/config` (client 0.62). */
export function legacyConfigOf(config: WebClientConfig): Record<string, unknown> {
  const flags = config.feature_flags as Record<string, unknown>;
  const flag = (name: string) => flags[name] === true;
  return {
    APP_MODE: config.app_mode,
    GITHUB_CLIENT_ID: '',
    POSTHOG_CLIENT_KEY: config.posthog_client_key ?? '',
    FEATURE_FLAGS: {
      ENABLE_BILLING: flag('enable_billing'),
      HIDE_LLM_SETTINGS: flag('hide_llm_settings'),
      ENABLE_JIRA: flag('enable_jira'),
      ENABLE_JIRA_DC: flag('enable_jira_dc'),
      ENABLE_LINEAR: flag('enable_linear'),
    },
    PROVIDERS_CONFIGURED: config.providers_configured,
    AUTH_URL: config.auth_url,
    MAINTENANCE: config.maintenance_start_time === null ? null : { startTime: config.maintenance_start_time },
    APP_SLUG: config.github_app_slug,
  };
}

const names = (description: string) => Type.Array(Type.String(), { description });

/**
 * OpenHands' `/api/options/*`: the web client's configuration (0.62 reads it before anything else) over
 * `/api/v1/web-client/config`, the models over `/api/v1/config/models/search`, and the fixed lists of agents and
 * security analyzers.
 */
export function legacyOptionRoutes(app: FastifyInstance): ApiRoutes {
  return (routes) => {
    routes.get(
      '/api/options/config',
      {
        ...legacyRoute(
          'The web client’s configuration, upper-cased as OpenHands’ 0.62 client reads it',
          'GET /api/v1/web-client/config',
          {
            security: [],
            response: { 200: openShape('`{APP_MODE, GITHUB_CLIENT_ID, POSTHOG_CLIENT_KEY, FEATURE_FLAGS, ...}`.') },
          },
        ),
        config: { public: true },
      },
      async (request, reply) => {
        const answer = await callV1(app, request, { url: '/api/v1/web-client/config' });
        return succeeded(answer) ? legacyConfigOf(answer.body as WebClientConfig) : relay(reply, answer);
      },
    );

    routes.get(
      '/api/options/models',
      legacyRoute('The models a user may pick, as `provider/model`', 'GET /api/v1/config/models/search', {
        response: { 200: names('`provider/model` names (a bare name when it has no provider).') },
      }),
      async (request, reply) => {
        const models = await everyItem(app, request, '/api/v1/config/models/search');
        if (!models.items) return relay(reply, models);
        return (models.items as { provider: string | null; name: string }[]).map((model) =>
          model.provider ? `${model.provider}/${model.name}` : model.name,
        );
      },
    );

    for (const [path, list, what] of [
      ['agents', AGENTS, 'The agents a conversation may run'],
      ['security-analyzers', SECURITY_ANALYZERS, 'The security analyzers a conversation may use'],
    ] as const) {
      routes.get(`/api/options/${path}`, legacyRoute(what, 'none', { response: { 200: names(what) } }), () => list);
    }
  };
}
