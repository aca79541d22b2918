import { createHttpServer, installEdgeErrors } from '@bosun/http';
import type { FastifyInstance } from 'fastify';
import type { Cache } from './cache/index.ts';
import { type AppServerConfig, appServerConfig } from './config.ts';
import type { AppDatabase, KeyRing } from './data/index.ts';
import type { ObjectStore } from './objects/index.ts';
import { installOpenApi } from './openapi.ts';
import { healthRoutes } from './routes/health.ts';
import { homeRoutes, readmeRoutes } from './routes/home.ts';
import { identityApiOfServer } from './routes/identity-api.ts';
import { sandboxApiOfServer } from './routes/sandbox-api.ts';

/** Something the server needs that can stop answering (a database, a cache, an object store). */
export interface Dependency {
  /** Resolves when it answers; rejects (or never settles) when it does not. */
  ping(): Promise<void>;
}

/** What the server was given to work with: `/ready` is 200 only when each one given answers. */
export interface AppDependencies {
  database?: AppDatabase;
  cache?: Cache;
  objects?: ObjectStore;
}

/** What every route module gets. */
export interface AppContext {
  config: AppServerConfig;
  dependencies: AppDependencies;
  /** What seals secrets at rest (with `dependencies.database`: `createRepositories(database, keyRing)`). */
  keyRing?: KeyRing;
  /** Where people and sandboxes reach the server: `public_url`, else the address it listens on. */
  publicUrl(): string;
}

/** A route module: registers its routes on `api`, whose paths are under `/api/v1`. */
export type ApiRoutes = (api: FastifyInstance, context: AppContext) => void | Promise<void>;

/** Every route module of `/api/v1`: adding one is one line here. */
export const API_ROUTES: readonly ApiRoutes[] = [identityApiOfServer, sandboxApiOfServer];

export interface AppServerOptions {
  /** Defaults fill in whatever is left out. */
  config?: Partial<AppServerConfig>;
  dependencies?: AppDependencies;
  keyRing?: KeyRing;
  /** The route modules of `/api/v1` (default: `API_ROUTES`). */
  apiRoutes?: readonly ApiRoutes[];
  /** Where the logs go (default: standard output); the level is the config's. */
  logStream?: { write(line: string): unknown };
  /** How long `/ready` waits for each dependency to answer. */
  readyTimeoutMs?: number;
}

export interface AppServer {
  app: FastifyInstance;
  context: AppContext;
  /** Closes the server (not the dependencies: they are the caller's); requests arriving meanwhile get 503. */
  close(): Promise<void>;
}

export const API_PREFIX = '/api/v1';

/** Builds the app server: the shared HTTP stack, its OpenAPI document, health, the home page and `/api/v1`. */
export async function buildAppServer(options: AppServerOptions = {}): Promise<AppServer> {
  const startedAt = Date.now();
  const config = appServerConfig(options.config);
  const context: AppContext = {
    config,
    dependencies: options.dependencies ?? {},
    ...(options.keyRing ? { keyRing: options.keyRing } : {}),
    publicUrl: () => config.public_url?.replace(/\/+$/, '') ?? listeningUrl(app),
  };
  const { log_level: level } = config;
  const app = createHttpServer({ logLevel: level === 'silent' ? undefined : level, logStream: options.logStream });
  await installOpenApi(app);
  installEdgeErrors(app);
  healthRoutes(app, {
    startedAt,
    dependencies: context.dependencies,
    timeoutMs: options.readyTimeoutMs ?? 2_000,
  });
  homeRoutes(app);
  readmeRoutes(app);
  const modules = options.apiRoutes ?? API_ROUTES;
  await app.register(
    async (api) => {
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
