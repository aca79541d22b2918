import type { FastifyInstance } from 'fastify';
import type { Cache } from './cache/index.ts';
import type { AppServerConfig } from './config.ts';
import type { AppDatabase, KeyRing, Repositories } from './data/index.ts';
import type { ConversationEvents } from './events/index.ts';
import type { GitHubApp } from './git/apps/github-app.ts';
import type { GitTokenRenewal } from './git/token-renewal.ts';
import type { MoreTableRows } from './marketplaces/index.ts';
import type { ObjectStore } from './objects/index.ts';
import type { RateLimiter } from './rate-limit/index.ts';
import type { SandboxRuntime, SandboxSpec, Sandboxes } from './sandboxes/index.ts';

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

/** What every route module gets. */
export interface AppContext {
  config: AppServerConfig;
  dependencies: AppDependencies;
  /** What seals secrets at rest (with `dependencies.database`: `createRepositories(database, keyRing)`). */
  keyRing?: KeyRing;
  /** Present when the server has a database, a cache and a key ring; stopped when the server closes. */
  services?: AppServices;
  /** Where people and sandboxes reach the server: `public_url`, else the address it listens on. */
  publicUrl(): string;
}

/**
 * Routes, as every route file exports them: registers them on `api` (under `/api/v1` when the server registers
 * them there, else at its root: sockets, proxies, health, aliases). A file whose routes need more than the
 * context exports a function of what they need that returns its `ApiRoutes`.
 */
export type ApiRoutes = (api: FastifyInstance, context: AppContext) => void | Promise<void>;
