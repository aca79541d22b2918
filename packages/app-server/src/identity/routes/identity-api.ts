import type { AppServerConfig } from '../../config.ts';
import type { AppContext, AppDependencies, ServerRoutes } from '../../context.ts';
import { type KeyRing, type Repositories, createRepositories } from '../../data/index.ts';
import { gitUrlsOf } from '../../git/provider-urls.ts';
import type { ApiRoutes } from '../../http/api-routes.ts';
import { isLoopbackHost } from '../../http/loopback-host.ts';
import { marketplacesOf } from '../../marketplaces/index.ts';
import { oidcLoginOf } from '../oidc/index.ts';
import { DEFAULT_RATE_LIMITS, type RateLimiter, type RateLimits } from '../rate-limits.ts';
import { prepareOwnerSignIn } from '../sign-in.ts';
import type { IdentityRouteDeps } from './deps.ts';
import { identityRoutes } from './identity-routes.ts';

/** The `/api/v1` route module of identity, settings, secrets and organizations, given what it needs. */
export function identityApi(deps: IdentityRouteDeps): ApiRoutes {
  return identityRoutes(deps);
}

/**
 * The same module over the server's own database, key ring and cache (rate limits shared through Redis when
 * configured). A server built without a database has no such routes.
 */
export const identityApiOfServer: ServerRoutes = (api, context: AppContext) => {
  const { services, config } = context;
  if (!services) return;
  const { personal } = marketplacesOf(services.repositories, config, gitUrlsOf(config), services.gitTokens);
  const deps = identityRouteDeps(services.repositories, config, services.rateLimiter);
  const { keyRing, dependencies } = context;
  const oidc =
    keyRing && dependencies.cache
      ? oidcLoginOf(config, {
          keyRing,
          cache: dependencies.cache,
          accounts: services.repositories,
          publicUrl: context.publicUrl,
          secureCookies: deps.secureCookies,
          log: api.log,
        })
      : undefined;
  identityRoutes({ ...deps, marketplaces: personal, ...(oidc ? { oidc } : {}) })(api, context);
};

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

/**
 * On the first start of an install (no owner yet): makes the owner and answers their one-time sign-in URL, to
 * print once on standard output (never in the log: it is a credential). Later starts answer undefined.
 */
export async function ownerSignInOnFirstStart(
  dependencies: AppDependencies,
  keyRing: KeyRing,
  publicUrl: string,
): Promise<string | undefined> {
  if (!dependencies.database) return undefined;
  return prepareOwnerSignIn(createRepositories(dependencies.database, keyRing), publicUrl);
}
