import type { AppServerConfig } from '../config.ts';
import type { Repositories } from '../data/index.ts';
import type { ApiRoutes } from '../http/api-routes.ts';
import { isLoopbackHost } from '../http/loopback-host.ts';
import { DEFAULT_RATE_LIMITS, type RateLimiter, type RateLimits } from '../identity/rate-limits.ts';
import type { SettingsRouteDeps } from '../settings/routes/deps.ts';
import { accountRoutes } from './account-routes.ts';

/**
 * The account's `/api/v1` module (identity, settings, secrets, Git provider tokens, organizations), given what it
 * needs.
 */
export function accountApi(deps: SettingsRouteDeps): ApiRoutes {
  return accountRoutes(deps);
}

/** What those routes need, from the open database's repositories, the configuration and a rate limiter. */
export function accountRouteDeps(
  repositories: Repositories,
  config: Pick<AppServerConfig, 'llm_model' | 'llm_base_url' | 'llm_api_key' | 'public_url'> & { host?: string },
  rateLimiter: RateLimiter,
  rateLimits: RateLimits = DEFAULT_RATE_LIMITS,
): SettingsRouteDeps {
  const { users, apiKeys, sessions, organizations, settings, secrets, providerTokens, llmProfiles } = repositories;
  return {
    users,
    apiKeys,
    sessions,
    organizations,
    settings,
    secrets,
    providerTokens,
    llmProfiles,
    llmDefaults: { model: config.llm_model, baseUrl: config.llm_base_url, apiKey: config.llm_api_key },
    rateLimiter,
    rateLimits,
    secureCookies: config.public_url?.startsWith('https://') ?? false,
    serverOnLoopback: isLoopbackHost(config.host ?? '127.0.0.1'),
  };
}
