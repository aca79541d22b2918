import { accountRouteDeps } from './account/account-api.ts';
import { accountRoutes } from './account/account-routes.ts';
import { catalogApi } from './catalog/routes/catalog.ts';
import type { AppContext, ServerRoutes } from './context.ts';
import { conversationApi } from './conversations/routes/app-conversation-api.ts';
import { pendingMessagesApi } from './conversations/routes/pending-messages.ts';
import { sharedApi } from './conversations/routes/shared-conversations.ts';
import { leaseOf } from './data/row-leases.ts';
import { eventSocketRoutes } from './events/routes/event-socket.ts';
import { eventsApi } from './events/routes/events-api.ts';
import { gitUrlsOf } from './git/provider-urls.ts';
import { gitAppWebhookRoutes } from './git/routes/git-app-webhook.ts';
import { gitBrowseApi } from './git/routes/git-browse.ts';
import { legacyApi } from './http/legacy/index.ts';
import { notApplicableApi } from './http/not-applicable.ts';
import { webClientConfigRoutes } from './http/web-client-config.ts';
import { loginUrlOf, oidcLoginOf } from './identity/oidc/index.ts';
import { DEFAULT_RATE_LIMITS, rateLimited } from './identity/rate-limits.ts';
import { llmProfilesApi } from './llm-profiles/routes/llm-profiles.ts';
import { marketplacesOf } from './marketplaces/index.ts';
import { marketplaceApi } from './marketplaces/routes/marketplaces.ts';
import { launchApi } from './plugin-directory/routes/launch.ts';
import { pluginDirectoryApi, pluginDirectoryOf } from './plugin-directory/routes/plugin-directory.ts';
import { sandboxProxyTargets } from './sandboxes/proxy-targets.ts';
import { sandboxProxy } from './sandboxes/routes/sandbox-proxy.ts';
import { sandboxSecretRoutes } from './sandboxes/routes/sandbox-secrets.ts';
import { sandboxSpecRoutes } from './sandboxes/routes/sandbox-specs.ts';
import { sandboxRoutes } from './sandboxes/routes/sandboxes.ts';
import { SkillRepositoryDiscovery, discoverySettingsOf } from './skill-repositories/discovery.ts';
import { pluginTrustGate } from './trust/index.ts';
import { pluginTrustApi } from './trust/routes/plugin-trust.ts';

/*
 * The server's route modules, in the order they are registered, each over the server's own services: a domain's
 * module takes what its routes need (`xApi(deps)`, as the tests build it); its `xApiOfServer` here builds that
 * from the server's services and configuration. Adding a module is one function here and one line in a list.
 */

/**
 * The account module (account/account-routes.ts) over the server's own database, key ring and cache (rate limits
 * shared through Redis when configured). A server built without a database has no such routes.
 */
const accountApiOfServer: ServerRoutes = (api, context: AppContext) => {
  const { services, config } = context;
  if (!services) return;
  const { personal } = marketplacesOf(services.repositories, config, gitUrlsOf(config), services.gitTokens);
  const deps = accountRouteDeps(services.repositories, config, services.rateLimiter);
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
  accountRoutes({ ...deps, marketplaces: personal, ...(oidc ? { oidc } : {}) })(api, context);
};

/** The routes of sandboxes and sandbox specs over the server's services (its sandboxes: in its runtime). */
const sandboxApiOfServer: ServerRoutes = async (api, context: AppContext) => {
  const { services } = context;
  // As the identity routes, which authenticate these: no database, no routes.
  if (!services) return;
  const { sandboxes, specs, rateLimiter } = services;
  const startLimit = rateLimited(rateLimiter, DEFAULT_RATE_LIMITS, 'sandbox_start');
  sandboxRoutes({ sandboxes, specs, startLimit })(api, context);
  sandboxSpecRoutes(specs)(api, context);
};

/** The secrets a sandbox looks up, over the server's services; none without a database. */
const sandboxSecretsApiOfServer: ServerRoutes = (api, context: AppContext) => {
  const { services } = context;
  if (!services) return;
  const { sandboxes, repositories, gitTokens } = services;
  // Provider tokens through the renewing read: a sandbox looking one up gets it renewed when it expired.
  sandboxSecretRoutes({ sandboxes, sources: { secrets: repositories.secrets, providerTokens: gitTokens } })(
    api,
    context,
  );
};

/** The conversation events' routes over the server's services; a server without a database has no such routes. */
const eventsApiOfServer: ServerRoutes = (api, context: AppContext) => {
  const { services } = context;
  if (!services) return;
  const { repositories, sandboxes, events } = services;
  eventsApi({ conversations: repositories.conversations, sandboxes, events })(api, context);
};

/**
 * The conversations' module over the server's services; without a database (or cache), only the web client's
 * configuration.
 */
const conversationApiOfServer: ServerRoutes = async (api, context: AppContext) => {
  const { services, config } = context;
  const { cache } = context.dependencies;
  const authUrl = loginUrlOf(config, context.publicUrl);
  if (!services || !cache) {
    webClientConfigRoutes(gitUrlsOf(config), authUrl)(api, context);
    return;
  }
  const { repositories, sandboxes, specs, rateLimiter, gitTokens, githubApp } = services;
  const marketplaces = marketplacesOf(repositories, config, gitUrlsOf(config), gitTokens);
  const skillRepositories = new SkillRepositoryDiscovery({
    git: marketplaces.git,
    ...discoverySettingsOf(config, gitTokens, githubApp),
  });
  await conversationApi({
    repositories,
    sandboxes,
    specs,
    cache,
    gitUrls: gitUrlsOf(config),
    gitTokens,
    publicUrl: context.publicUrl,
    allowPrivateHosts: config.git_allow_private_hosts,
    pluginTrust: pluginTrustGate(repositories, gitTokens, gitUrlsOf(config), config.data_dir),
    llmDefaults: { model: config.llm_model, baseUrl: config.llm_base_url, apiKey: config.llm_api_key },
    autoLoad: marketplaces.autoLoad,
    skillRepositories,
    githubApp,
    startLimit: rateLimited(rateLimiter, DEFAULT_RATE_LIMITS, 'sandbox_start'),
    startTaskLease: leaseOf(config.start_task_lease),
    authUrl,
  })(api, context);
};

/** The pending messages' routes over the server's services (none without a database). */
const pendingMessagesApiOfServer: ServerRoutes = (api, context) => {
  const { services } = context;
  if (!services) return;
  return pendingMessagesApi({ repositories: services.repositories, sandboxes: services.sandboxes })(api, context);
};

/** The Plugin Directory over the server's configuration and services (none without a database). */
const pluginDirectoryApiOfServer: ServerRoutes = (api, context) => {
  if (!context.services) return;
  const directory = pluginDirectoryOf(context.config, context.publicUrl);
  return pluginDirectoryApi(directory, context.services.repositories)(api, context);
};

/** The plugin trust routes over the server's services (none without a database). */
const pluginTrustApiOfServer: ServerRoutes = (api, context) => {
  if (context.services) return pluginTrustApi(context.services.repositories)(api, context);
};

/** The marketplaces' routes over the server's database and configuration; none without a database. */
const marketplaceApiOfServer: ServerRoutes = (api, context: AppContext) => {
  if (!context.services) return;
  const { repositories, gitTokens, skillRepositoryRows } = context.services;
  const { config } = context;
  return marketplaceApi(marketplacesOf(repositories, config, gitUrlsOf(config), gitTokens, skillRepositoryRows))(
    api,
    context,
  );
};

/** The catalog over the server's own database and configuration (none without one: nothing would authenticate). */
const catalogApiOfServer: ServerRoutes = (api, context: AppContext) => {
  const { services, config } = context;
  if (!services) return;
  const { repositories } = services;
  return catalogApi({
    defaultModel: config.llm_model,
    marketplaces: marketplacesOf(repositories, config, gitUrlsOf(config), services.gitTokens),
    settings: repositories.settings,
    cache: context.dependencies.cache,
  })(api, context);
};

/** The LLM profiles' routes over the server's services (none without a database). */
const llmProfilesApiOfServer: ServerRoutes = (api, context) => {
  const { services, config } = context;
  if (!services) return;
  const llmDefaults = { model: config.llm_model, baseUrl: config.llm_base_url, apiKey: config.llm_api_key };
  const { repositories, sandboxes, rateLimiter } = services;
  const saveLimit = rateLimited(rateLimiter, DEFAULT_RATE_LIMITS, 'secret_write');
  return llmProfilesApi({ repositories, sandboxes, llmDefaults, saveLimit })(api, context);
};

/** Git browsing over the server's services and configuration (none without a database). */
const gitBrowseApiOfServer: ServerRoutes = (api, context) => {
  const { services, config } = context;
  if (!services) return;
  return gitBrowseApi({
    providerTokens: services.gitTokens,
    gitUrls: gitUrlsOf(config),
    allowPrivateHosts: config.git_allow_private_hosts,
  })(api, context);
};

/** The GitHub App's webhook over the server's services (a server without a database takes none). */
const gitAppWebhookApiOfServer: ServerRoutes = async (api, context) => {
  const { services, config } = context;
  if (!services) return;
  await gitAppWebhookRoutes({
    secret: config.git_github_app_webhook_secret,
    events: services.repositories.gitAppEvents,
    app: services.githubApp,
  })(api, context);
};

/** The live events' socket over the server's services; none without a database. */
const eventSocketOfServer: ServerRoutes = (app, context: AppContext) => {
  const { services } = context;
  if (!services) return;
  const { repositories, sandboxes, events } = services;
  const identity = { apiKeys: repositories.apiKeys, sessions: repositories.sessions };
  eventSocketRoutes({ identity, conversations: repositories.conversations, sandboxes, events })(app, context);
};

/** The sandboxes' agent servers proxied over the server's services (none without a database: no sandboxes). */
const sandboxProxyOfServer: ServerRoutes = (app, context: AppContext) => {
  const { services } = context;
  if (!services) return;
  return sandboxProxy(sandboxProxyTargets(services.sandboxes, services.repositories.sandboxes))(app, context);
};

/** The shared conversations over the server's services; a server without a database has no such routes. */
const sharedApiOfServer: ServerRoutes = (app, context: AppContext) => {
  const { services } = context;
  if (!services) return;
  return sharedApi({ repositories: services.repositories, rateLimiter: services.rateLimiter })(app, context);
};

/** Every route module of `/api/v1`. */
export const API_ROUTES: readonly ServerRoutes[] = [
  accountApiOfServer, // account/: identity's users, sign-in, API keys; settings, secrets, organizations
  sandboxApiOfServer, // sandboxes/
  sandboxSecretsApiOfServer, // sandboxes/: the secrets a sandbox looks up
  eventsApiOfServer, // events/
  conversationApiOfServer, // conversations/
  pendingMessagesApiOfServer, // conversations/
  launchApi, // plugin-directory/
  pluginDirectoryApiOfServer, // plugin-directory/
  pluginTrustApiOfServer, // trust/
  marketplaceApiOfServer, // marketplaces/
  catalogApiOfServer, // catalog/
  llmProfilesApiOfServer, // llm-profiles/
  gitBrowseApiOfServer, // git/
  gitAppWebhookApiOfServer, // git/
  notApplicableApi, // http/
];

/**
 * Every module of routes outside `/api/v1`: WebSockets (under `/sockets`), the sandboxes' agent servers proxied
 * under `/sandboxes/{id}/agent` (HTTP and WebSockets), the shared conversations at OpenHands' `/api/shared-*` and
 * the aliases of OpenHands' older routes its web client still calls (`/api/settings`, `/api/conversations`...).
 */
export const SOCKET_ROUTES: readonly ServerRoutes[] = [
  eventSocketOfServer, // events/
  sandboxProxyOfServer, // sandboxes/
  sharedApiOfServer, // conversations/
  legacyApi, // http/
];
