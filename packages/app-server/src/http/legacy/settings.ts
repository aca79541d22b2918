import type { Settings } from '@bosun/protocol';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { ApiRoutes } from '../../http/api-routes.ts';
import { callV1, legacyRoute, openShape, relay, succeeded } from './forward.ts';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The V1 settings in OpenHands' flat `GETSettingsModel`: the fields are the same but for the ones its web client
 * reads that V1 keeps elsewhere (`mcp_config` and `condenser_max_size` in `agent_settings`, the email in
 * `/users/me`) and the secrets, always null (`*_set` says whether one is set).
 */
export function legacySettingsOf(settings: Settings, email: string | null): Json {
  const agent = settings.agent_settings;
  const condenser = isObject(agent.condenser) ? agent.condenser : {};
  return {
    ...settings,
    agent: 'CodeActAgent',
    llm_api_key: null,
    search_api_key: null,
    mcp_config: isObject(agent.mcp_config) ? agent.mcp_config : null,
    enable_default_condenser: condenser.enabled !== false,
    condenser_max_size: typeof condenser.max_size === 'number' ? condenser.max_size : null,
    enable_solvability_analysis: false,
    email,
    email_verified: true,
    v1_enabled: true,
  };
}

/**
 * OpenHands' settings body as a V1 update. Its web client posts its whole settings object: V1 ignores the
 * fields it does not know. An empty `llm_api_key` clears the key, a null or missing one keeps it; an empty or
 * null `search_api_key` keeps it (OpenHands 1.5); an empty `llm_base_url` is the default one; `mcp_config` and `condenser_max_size` go into `agent_settings`.
 */
export function v1UpdateOf(body: Json): Json {
  const { llm_api_key, search_api_key, mcp_config, condenser_max_size, ...rest } = body;
  const update: Json = { ...rest };
  // An empty base URL is the client's "basic" mode: the provider's (here the instance's) default.
  if (update.llm_base_url === '') update.llm_base_url = null;
  if (llm_api_key === '') update.llm_api_key = null;
  else if (llm_api_key !== null && llm_api_key !== undefined) update.llm_api_key = llm_api_key;
  if (search_api_key !== '' && search_api_key !== null && search_api_key !== undefined) {
    update.search_api_key = search_api_key;
  }
  const diff: Json = isObject(rest.agent_settings_diff) ? { ...rest.agent_settings_diff } : {};
  if (mcp_config !== undefined) diff.mcp_config = mcp_config;
  if (condenser_max_size !== undefined && condenser_max_size !== null) {
    diff.condenser = { ...(isObject(diff.condenser) ? diff.condenser : {}), max_size: condenser_max_size };
  }
  if (Object.keys(diff).length > 0) update.agent_settings_diff = diff;
  return update;
}

const SettingsBody = Type.Object(
  {
    llm_api_key: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    search_api_key: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    condenser_max_size: Type.Optional(Type.Union([Type.Integer({ minimum: 20 }), Type.Null()])),
    mcp_config: Type.Optional(Type.Union([openShape('MCP servers'), Type.Null()])),
  },
  { additionalProperties: true, description: 'OpenHands’ settings; fields V1 does not know are ignored.' },
);
const Stored = Type.Object({ message: Type.String() });

/**
 * OpenHands' `/api/settings` (GET and POST), over `/api/v1/settings`, and its Git provider routes
 * (`/api/add-git-providers`, and `/api/unset-provider-tokens`: the OSS client's "logout") over
 * `/api/v1/secrets/git-providers`.
 */
export function legacySettingsRoutes(app: FastifyInstance): ApiRoutes {
  return (routes) => {
    routes.get(
      '/api/settings',
      legacyRoute('The caller’s settings, flat as OpenHands’ `GETSettingsModel`', 'GET /api/v1/settings', {
        response: { 200: openShape('OpenHands’ settings; every secret null, `*_set` says whether one is set.') },
      }),
      async (request, reply) => {
        const [settings, me] = await Promise.all([
          callV1(app, request, { url: '/api/v1/settings' }),
          callV1(app, request, { url: '/api/v1/users/me' }),
        ]);
        if (!succeeded(settings)) return relay(reply, settings);
        return legacySettingsOf(settings.body as Settings, succeeded(me) ? (me.body.email ?? null) : null);
      },
    );

    routes.post<{ Body: Json }>(
      '/api/settings',
      legacyRoute('Store the caller’s settings (the whole object OpenHands’ client holds)', 'POST /api/v1/settings', {
        body: SettingsBody,
        response: { 200: Stored },
      }),
      async (request, reply) => {
        const answer = await callV1(app, request, {
          method: 'POST',
          url: '/api/v1/settings',
          body: v1UpdateOf(request.body),
        });
        return succeeded(answer) ? { message: 'Settings stored' } : relay(reply, answer);
      },
    );

    routes.post<{ Body: Json }>(
      '/api/add-git-providers',
      legacyRoute('Store Git provider tokens', 'POST /api/v1/secrets/git-providers', {
        body: openShape('`{"provider_tokens": {"github": {"token", "host"}}}`'),
        response: { 200: Stored },
      }),
      async (request, reply) => {
        const body = request.body;
        const answer = await callV1(app, request, { method: 'POST', url: '/api/v1/secrets/git-providers', body });
        return succeeded(answer) ? { message: 'Git providers stored' } : relay(reply, answer);
      },
    );

    routes.post(
      '/api/unset-provider-tokens',
      legacyRoute('Delete every Git provider token (OpenHands’ OSS logout)', 'DELETE /api/v1/secrets/git-providers', {
        response: { 200: Stored },
      }),
      async (request, reply) => {
        const answer = await callV1(app, request, { method: 'DELETE', url: '/api/v1/secrets/git-providers' });
        return succeeded(answer) ? { message: 'Unset Git provider tokens' } : relay(reply, answer);
      },
    );
  };
}
