import type { AppServerConfig } from '../../config.ts';
import type { Repositories } from '../../data/index.ts';
import type { ApiRoutes } from '../../http/api-routes.ts';
import { isLoopbackHost } from '../../http/loopback-host.ts';
import { DEFAULT_RATE_LIMITS, type RateLimiter, type RateLimits } from '../rate-limits.ts';
import type { IdentityRouteDeps } from './deps.ts';
import { identityRoutes } from './identity-routes.ts';

/** The `/api/v1` route module of identity, settings, secrets and organizations, given what it needs. */
export function identityApi(deps: IdentityRouteDeps): ApiRoutes {
  return identityRoutes(deps);
}

/** What those routes need, from the open database's repositories, the configuration and a rate limiter. */
export function identityRouteDeps(
  repositories: Repositories,
  config: Pick<AppServerConfig, 'llm_model' | 'llm_base_url' | 'llm_api_key' | 'public_url'> & { host?: string },
  rateLimiter: RateLimiter,
  rateLimits: RateLimits = DEFAULT_RATE_LIMITS,
): IdentityRouteDeps {
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
