import type { FastifyInstance } from 'fastify';
import type { Cache } from './cache/index.ts';
import type { AppDatabase, KeyRing, Repositories } from './data/index.ts';
import type { ConversationEvents } from './events/index.ts';
import type { GitHubApp } from './git/apps/github-app.ts';
import type { GitTokenRenewal } from './git/token-renewal.ts';
import type { RouteContext } from './http/api-routes.ts';
import type { MoreTableRows } from './marketplaces/index.ts';
import type { ObjectStore } from './objects/index.ts';
import type { RateLimiter } from './rate-limit/index.ts';
import type { SandboxRuntime, SandboxSpec, Sandboxes } from './sandboxes/index.ts';

/** What the server was given to work with: `/ready` is 200 only when each one given answers. */
export interface AppDependencies {
  database?: AppDatabase;
  cache?: Cache;
  objects?: ObjectStore;
  /** Where sandboxes run (default: a runtime the services open from the configuration). */
  sandboxRuntime?: SandboxRuntime;
}

/** What route modules share, one of each per server (see openServices in server.ts). */
export interface AppServices {
  repositories: Repositories;
  /** Shared between replicas when the cache is Redis. */
  rateLimiter: RateLimiter;
  sandboxes: Sandboxes;
  /** The runtime they run in; `owned`: opened by the services, closed with the server. */
  sandboxRuntime: SandboxRuntime & { owned: boolean };
  /** The sandbox specs; the first is the default. */
  specs: readonly SandboxSpec[];
  /** The conversations' events: the app's store, webhooks in, catch-up from the sandboxes. */
  events: ConversationEvents;
  /** The users' Git provider tokens as they are read to be used: renewed when they expire (git/token-renewal). */
  gitTokens: GitTokenRenewal;
  /** The GitHub App the server acts as (`git_github_app_private_key`), when configured: its installation tokens. */
  githubApp?: GitHubApp | undefined;
  /** The Skills & Plugins table's rows of the user's skills repositories (skill-repositories/table-rows). */
  skillRepositoryRows?: MoreTableRows;
}

/** What the server's own route modules get: a route's context, with what the server was given and built. */
export interface AppContext extends RouteContext {
  dependencies: AppDependencies;
  /** What seals secrets at rest (with `dependencies.database`: `createRepositories(database, keyRing)`). */
  keyRing?: KeyRing;
  /** Present when the server has a database, a cache and a key ring; stopped when the server closes. */
  services?: AppServices;
}

/**
 * A route module over the server's services: builds what its routes need from `context.services`, then registers
 * them (`ApiRoutes` are such modules too: they read no more than a route's context).
 */
export type ServerRoutes = (api: FastifyInstance, context: AppContext) => void | Promise<void>;
