import { createHttpServer, installEdgeErrors, refuseNulText, timeoutsOf } from '@bosun/http';
import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import { type AppServerConfig, appServerConfig } from './config.ts';
import type { ApiRoutes, AppContext, AppDependencies } from './context.ts';
import type { KeyRing } from './data/index.ts';
import { LICENSE_ISSUER, LicenseMonitor, type LicenseTrust, verifyLicense } from './license/index.ts';
import { installOpenApi } from './openapi.ts';
import { conversationApiOfServer } from './routes/app-conversation-api.ts';
import { catalogApiOfServer } from './routes/catalog.ts';
import { eventSocketOfServer, eventsApiOfServer } from './routes/events-api.ts';
import { gitAppWebhookApiOfServer } from './routes/git-app-webhook.ts';
import { gitBrowseApiOfServer } from './routes/git-browse.ts';
import { healthRoutes } from './routes/health.ts';
import { identityApiOfServer } from './routes/identity-api.ts';
import { launchApi } from './routes/launch.ts';
import { legacyApi } from './routes/legacy/index.ts';
import { llmProfilesApiOfServer } from './routes/llm-profiles.ts';
import { marketplaceApiOfServer } from './routes/marketplaces.ts';
import { notApplicableApi } from './routes/not-applicable.ts';
import { pendingMessagesApiOfServer } from './routes/pending-messages.ts';
import { pluginDirectoryApiOfServer } from './routes/plugin-directory.ts';
import { pluginTrustApiOfServer } from './routes/plugin-trust.ts';
import { readmeRoutes } from './routes/readme.ts';
import { sandboxApiOfServer } from './routes/sandbox-api.ts';
import { sandboxProxyOfServer } from './routes/sandbox-proxy.ts';
import { sandboxSecretsApiOfServer } from './routes/sandbox-secrets.ts';
import { sharedApiOfServer } from './routes/shared-conversations.ts';
import { installedWebRoot, webAppRoutes } from './routes/web-app.ts';
import { openServices } from './services.ts';

/** Every route module of `/api/v1`: adding one is one line here. */
export const API_ROUTES: readonly ApiRoutes[] = [
  identityApiOfServer,
  sandboxApiOfServer,
  sandboxSecretsApiOfServer,
  eventsApiOfServer,
  conversationApiOfServer,
  pendingMessagesApiOfServer,
  launchApi,
  pluginDirectoryApiOfServer,
  pluginTrustApiOfServer,
  marketplaceApiOfServer,
  catalogApiOfServer,
  llmProfilesApiOfServer,
  gitBrowseApiOfServer,
  gitAppWebhookApiOfServer,
  notApplicableApi,
];

/**
 * Every module of routes outside `/api/v1`: WebSockets (under `/sockets`), the sandboxes' agent servers proxied
 * under `/sandboxes/{id}/agent` (HTTP and WebSockets), the shared conversations at OpenHands' `/api/shared-*` and
 * the aliases of OpenHands' older routes its web client still calls (`/api/settings`, `/api/conversations`...).
 */
export const SOCKET_ROUTES: readonly ApiRoutes[] = [
  eventSocketOfServer,
  sandboxProxyOfServer,
  sharedApiOfServer,
  legacyApi,
];

export interface AppServerOptions {
  /** Defaults fill in whatever is left out. */
  config?: Partial<AppServerConfig>;
  dependencies?: AppDependencies;
  keyRing?: KeyRing;
  /** The route modules of `/api/v1` (default: `API_ROUTES`). */
  apiRoutes?: readonly ApiRoutes[];
  /** The socket route modules (default: `SOCKET_ROUTES`, or none when `apiRoutes` is given). */
  socketRoutes?: readonly ApiRoutes[];
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
  healthRoutes(app, {
    startedAt,
    dependencies: context.dependencies,
    sandboxRuntime: () => context.services?.sandboxRuntime ?? context.dependencies.sandboxRuntime,
    timeoutMs: options.readyTimeoutMs ?? 2_000,
    license: () => license.status(),
  });
  await webAppRoutes(app, 'webRoot' in options ? options.webRoot : installedWebRoot());
  readmeRoutes(app);
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

/** `http://host:port` of where `app` listens (IPv6 hosts in brackets). */
export function listeningUrl(app: FastifyInstance): string {
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the server is not listening on a TCP port');
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}
