import { createHttpServer, installEdgeErrors, refuseNulText, timeoutsOf } from '@bosun/http';
import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import { type AppServerConfig, appServerConfig } from './config.ts';
import type { AppContext, AppDependencies, AppServices, ServerRoutes } from './context.ts';
import type { ConversationLog } from './conversations/deps.ts';
import { renewLookupKeys } from './conversations/lookup-keys.ts';
import { PendingMessages } from './conversations/pending-messages.ts';
import { type KeyRing, createRepositories } from './data/index.ts';
import { ConversationEvents, webhookEnvironmentOf } from './events/index.ts';
import { gitHubAppOf } from './git/apps/github-app.ts';
import { gitUrlsOf } from './git/provider-urls.ts';
import { GitTokenRenewal, renewalClientsOf } from './git/token-renewal.ts';
import { healthRoutes } from './http/health.ts';
import { installOpenApi } from './http/openapi.ts';
import { readmeRoutes } from './http/readme.ts';
import { installedWebRoot, webAppRoutes } from './http/web-app.ts';
import { LICENSE_ISSUER, LicenseMonitor, type LicenseTrust, verifyLicense } from './license/index.ts';
import { RateLimiter } from './rate-limit/index.ts';
import { proxiedAgentPath, proxiesSandboxUrls } from './sandboxes/browser-urls.ts';
import { RuntimeSandboxes, SANDBOX_SPECS, type Sandbox, openSandboxRuntime } from './sandboxes/index.ts';
import { sandboxLaunch, warnWhenNotIsolated, withGitProviders } from './sandboxes/launch.ts';
import { API_ROUTES, SOCKET_ROUTES } from './server-routes.ts';
import { appUrlOf } from './settings/sandbox-secrets.ts';
import { discoverySettingsOf } from './skill-repositories/discovery.ts';
import { skillRepositoryTableRows } from './skill-repositories/table-rows.ts';

/*
 * The app server's composition root, read top down: what the server is given and what it builds
 * (`buildAppServer`), then the services the domains share (`openServices`) and how they are wired to one another
 * (`whenSandboxRuns`). The route modules it registers, in their order (the account module first, as its
 * authentication guards the others), are server-routes.ts's; opening the database, cache and object store from the
 * configuration is the start-up's (start/dependencies.ts); the types the server's route modules get are in context.ts.
 */

export interface AppServerOptions {
  /** Defaults fill in whatever is left out. */
  config?: Partial<AppServerConfig>;
  dependencies?: AppDependencies;
  keyRing?: KeyRing;
  /** The route modules of `/api/v1` (default: `API_ROUTES`). */
  apiRoutes?: readonly ServerRoutes[];
  /** The socket route modules (default: `SOCKET_ROUTES`, or none when `apiRoutes` is given). */
  socketRoutes?: readonly ServerRoutes[];
  /** Where the logs go (default: standard output); the level is the config's. */
  logStream?: { write(line: string): unknown };
  /** How long `/ready` waits for each dependency to answer. */
  readyTimeoutMs?: number;
  /** The built web application served at `/` (default: this installation's `packages/web/dist`, when built). */
  webRoot?: string;
  /** Whom `license` must come from (default: the issuer compiled in, `LICENSE_ISSUER`): tests sign their own. */
  licenseTrust?: LicenseTrust;
}

export interface AppServer {
  app: FastifyInstance;
  context: AppContext;
  /** Closes the server (not the dependencies: they are the caller's); requests arriving meanwhile get 503. */
  close(): Promise<void>;
}

export const API_PREFIX = '/api/v1';

/** Builds the app server: the shared HTTP stack, its OpenAPI document, health, the web application and `/api/v1`. */
export async function buildAppServer(options: AppServerOptions = {}): Promise<AppServer> {
  const startedAt = Date.now();
  const config = appServerConfig(options.config);
  const { log_level: level, log_format: logFormat } = config;
  const app = createHttpServer({
    logLevel: level === 'silent' ? undefined : level,
    logStream: options.logStream,
    logFormat,
    timeouts: timeoutsOf(config),
  });
  const base = {
    config,
    dependencies: options.dependencies ?? {},
    ...(options.keyRing ? { keyRing: options.keyRing } : {}),
    publicUrl: () => config.public_url?.replace(/\/+$/, '') ?? listeningUrl(app),
  };
  // Only the server's own route modules use the services: a server given its modules builds none.
  const services = options.apiRoutes ? undefined : await openServices(base, app.log);
  const context: AppContext = { ...base, ...(services ? { services } : {}) };
  if (services) {
    app.addHook('onClose', async () => {
      await services.events.close();
      await services.sandboxes.close();
      if (services.sandboxRuntime.owned) await services.sandboxRuntime.runtime.close();
    });
  }
  const license = new LicenseMonitor({
    verdict: verifyLicense(config.license, options.licenseTrust ?? LICENSE_ISSUER),
    ...(services ? { countUsers: () => services.repositories.users.count() } : {}),
    log: app.log,
  });
  // At start, the log says what the license is worth (and why not), before the server takes requests.
  await license.status();
  await installOpenApi(app);
  const sockets = options.socketRoutes ?? (options.apiRoutes ? [] : SOCKET_ROUTES);
  // Before the edge errors: a WebSocket handshake it refuses is then answered as JSON too.
  if (sockets.length > 0) await app.register(websocket);
  installEdgeErrors(app);
  healthRoutes({
    startedAt,
    dependencies: context.dependencies,
    sandboxRuntime: () => context.services?.sandboxRuntime ?? context.dependencies.sandboxRuntime,
    timeoutMs: options.readyTimeoutMs ?? 2_000,
    license: () => license.status(),
  })(app, context);
  await webAppRoutes('webRoot' in options ? options.webRoot : installedWebRoot())(app, context);
  readmeRoutes(app, context);
  for (const routes of sockets) await routes(app, context);
  const modules = options.apiRoutes ?? API_ROUTES;
  await app.register(
    async (api) => {
      refuseNulText(api);
      for (const routes of modules) await routes(api, context);
    },
    { prefix: API_PREFIX },
  );
  await app.ready();
  return {
    app,
    context,
    close: () => app.close(),
  };
}

/**
 * What several route modules share, built once per server over its database, cache and key ring: the
 * repositories, the rate limiter, the sandboxes (in the runtime the dependencies name, else one opened here from
 * the configuration) and the conversations' events. Undefined for a server without a database: it has no such routes.
 */
export async function openServices(
  context: Omit<AppContext, 'services'>,
  log: ConversationLog,
): Promise<AppServices | undefined> {
  const { database, cache } = context.dependencies;
  if (!database || !cache || !context.keyRing) return undefined;
  const { config } = context;
  const repositories = createRepositories(database, context.keyRing);
  // The events are told of sandboxes that run, and need the sandboxes: they are wired once both exist.
  const told: { running?: (sandbox: Sandbox, resumed: boolean) => Promise<void> } = {};
  const specs = withGitProviders(SANDBOX_SPECS, config);
  const given = context.dependencies.sandboxRuntime;
  const opened = given ?? (await openSandboxRuntime(config, { logger: { warn: (message) => log.warn({}, message) } }));
  const sandboxRuntime = { ...opened, owned: given === undefined };
  if (!opened.embedded) warnWhenNotIsolated(opened.runtime, log);
  const sandboxes = await RuntimeSandboxes.open({
    repository: repositories.sandboxes,
    runtime: opened.runtime,
    specs,
    maxRunningPerUser: config.max_running_sandboxes,
    launch: sandboxLaunch(config, repositories, webhookEnvironmentOf(context.publicUrl), context.publicUrl, opened),
    pauseOnClose: opened.embedded,
    ...(proxiesSandboxUrls(config.sandbox_urls, config.host, config.public_url)
      ? { browserUrlOf: (id: string) => `${context.publicUrl()}${proxiedAgentPath(id)}` }
      : {}),
    onRunning: (sandbox: Sandbox, resumed: boolean) => told.running?.(sandbox, resumed),
    log,
  }).catch(async (error) => {
    if (sandboxRuntime.owned) await opened.runtime.close();
    throw error;
  });
  const events = new ConversationEvents({
    repositories,
    sandboxes,
    cache,
    log,
    sweepIntervalMs: config.event_sweep_interval * 1000,
  });
  const pending = new PendingMessages({ repositories, sandboxes, log });
  told.running = whenSandboxRuns(events, pending, log, () => appUrlOf(context.publicUrl));
  const gitTokens = new GitTokenRenewal({
    store: repositories.providerTokens,
    clients: renewalClientsOf(config),
    urls: gitUrlsOf(config),
    log,
  });
  const githubApp = gitHubAppOf(config);
  const rateLimiter = new RateLimiter(cache);
  const skillRepositoryRows = skillRepositoryTableRows(discoverySettingsOf(config, gitTokens, githubApp));
  return {
    repositories,
    rateLimiter,
    sandboxes,
    sandboxRuntime,
    specs,
    events,
    gitTokens,
    githubApp,
    skillRepositoryRows,
  };
}

/**
 * What a sandbox that runs again (started, or resumed by any route) sets going: the app pulls the events it lacks
 * of its conversations; their LookupSecrets get the sandbox's new session key (before the sandbox is answered, so
 * that nothing runs with the old one: see renewLookupKeys), then the messages queued for them while it was paused
 * are delivered. Never rejects.
 */
export function whenSandboxRuns(
  events: ConversationEvents,
  pending: PendingMessages,
  log: ConversationLog,
  appUrl: () => string | undefined = () => undefined,
): (sandbox: Sandbox, resumed: boolean) => Promise<void> {
  return async (sandbox, resumed) => {
    events.sandboxRunning(sandbox);
    // A resumed sandbox has a new key, which its conversations' lookups must carry; a new one has no conversation.
    if (resumed) {
      await renewLookupKeys(sandbox, appUrl()).catch((error) =>
        log.warn({ err: error, sandboxId: sandbox.id }, 'sandbox secrets: lookups not renewed'),
      );
    }
    pending.deliverWaiting().catch((error) => log.warn({ err: error }, 'pending messages: they wait'));
  };
}

/** `http://host:port` of where `app` listens (IPv6 hosts in brackets). */
export function listeningUrl(app: FastifyInstance): string {
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the server is not listening on a TCP port');
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}
