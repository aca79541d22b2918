import { randomUUID } from 'node:crypto';
import { chmod } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { SANDBOX_COMMAND } from '../../../../test/support/sandbox-bundle.ts';
import { accountApi, accountRouteDeps } from '../../src/account/account-api.ts';
import { type Cache, MemoryCache, openCache } from '../../src/cache/index.ts';
import { catalogApi } from '../../src/catalog/routes/catalog.ts';
import { PendingMessages } from '../../src/conversations/pending-messages.ts';
import { conversationApi } from '../../src/conversations/routes/app-conversation-api.ts';
import { pendingMessagesApi } from '../../src/conversations/routes/pending-messages.ts';
import { sharedApi } from '../../src/conversations/routes/shared-conversations.ts';
import { KeyRing, type Repositories, createRepositories, newSecretsKey } from '../../src/data/index.ts';
import { ConversationEvents, webhookEnvironment } from '../../src/events/index.ts';
import { eventSocket, eventsApi } from '../../src/events/routes/events-api.ts';
import { gitHubAppOf } from '../../src/git/apps/github-app.ts';
import { gitUrlsOf } from '../../src/git/provider-urls.ts';
import { gitAppWebhookRoutes } from '../../src/git/routes/git-app-webhook.ts';
import { gitBrowseApi } from '../../src/git/routes/git-browse.ts';
import { GitTokenRenewal, renewalClientsOf } from '../../src/git/token-renewal.ts';
import { legacyApi } from '../../src/http/legacy/index.ts';
import { notApplicableApi } from '../../src/http/not-applicable.ts';
import { DEFAULT_RATE_LIMITS, type RateLimits, rateLimited } from '../../src/identity/rate-limits.ts';
import { type AppServer, type AppServerConfig, appServerConfig, buildAppServer } from '../../src/index.ts';
import { llmProfilesApi } from '../../src/llm-profiles/routes/llm-profiles.ts';
import { marketplacesOf } from '../../src/marketplaces/index.ts';
import { marketplaceApi } from '../../src/marketplaces/routes/marketplaces.ts';
import { launchApi } from '../../src/plugin-directory/routes/launch.ts';
import { pluginDirectoryApi, pluginDirectoryOf } from '../../src/plugin-directory/routes/plugin-directory.ts';
import { RateLimiter } from '../../src/rate-limit/index.ts';
import {
  RuntimeSandboxes,
  SANDBOX_SPECS,
  type Sandbox,
  type SandboxRuntime,
  openSandboxRuntime,
} from '../../src/sandboxes/index.ts';
import { sandboxLaunch, withGitProviders } from '../../src/sandboxes/launch.ts';
import { sandboxApi } from '../../src/sandboxes/routes/sandbox-api.ts';
import { sandboxSecretRoutes } from '../../src/sandboxes/routes/sandbox-secrets.ts';
import { whenSandboxRuns } from '../../src/server.ts';
import { SkillRepositoryDiscovery, discoverySettingsOf } from '../../src/skill-repositories/discovery.ts';
import { skillRepositoryTableRows } from '../../src/skill-repositories/table-rows.ts';
import { pluginTrustGate } from '../../src/trust/index.ts';
import { pluginTrustApi } from '../../src/trust/routes/plugin-trust.ts';
import { REDIS_URL, removeKeys, uniquePrefix } from '../cache/redis-support.ts';
import { sandboxWorkspace } from '../sandboxes/processes.ts';
import { type DatabaseTarget, describeEachDatabase } from '../support/databases.ts';
import { testOidcLogin } from '../support/oidc-login.ts';

/** A user of the tests, with an API key. */
export interface TestUser {
  id: string;
  email: string;
  key: string;
  headers: Record<string, string>;
}

export interface Answer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read wire JSON loosely and assert on it.
  body: any;
  text: string;
}

export interface CallOptions {
  method?: string;
  as?: TestUser;
  body?: unknown;
  headers?: Record<string, string>;
}

/** An app server with the identity routes over a real database (and, on PostgreSQL, rate limits in Redis). */
export interface Api {
  dialect: 'sqlite' | 'postgres';
  url: string;
  /** Where the database is (SQLite's file, on SQLite). */
  dataDir: string;
  /** The database and the key ring of its sealed values (to open it again, as another replica of the app would). */
  target: DatabaseTarget;
  keyRing: KeyRing;
  repositories: Repositories;
  /** The server's sandboxes (in `runtime`). */
  sandboxes: RuntimeSandboxes;
  /** Where they run: embedded over `<dataDir>/sandboxes`, as the options say (default: not isolated). */
  runtime: SandboxRuntime;
  /** Where the sandbox's workspace is on this machine (embedded runtime). */
  workspaceOf(sandboxId: string): Promise<string>;
  /** The conversations' events (no periodic sweep unless `event_sweep_interval` is configured). */
  events: ConversationEvents;
  /** The cache another replica of this server would use (the same Redis and prefix; in process: the same one). */
  replicaCache(): Promise<Cache>;
  /** Every log line the server wrote. */
  logs: string[];
  /**
   * A new user with an API key (made through the repositories: there is no sign-up route); with `settings`, posted
   * as theirs (POST /api/v1/settings, which must take them).
   */
  user(settings?: object): Promise<TestUser>;
  /** `count` new users (each with `settings`, when given). */
  users<N extends number>(count: N, settings?: object): Promise<Tuple<TestUser, N>>;
  call(path: string, options?: CallOptions): Promise<Answer>;
}

type Tuple<T, N extends number, R extends T[] = []> = R['length'] extends N ? R : Tuple<T, N, [...R, T]>;

export interface ApiOptions {
  rateLimits?: Partial<RateLimits>;
  config?: Partial<AppServerConfig>;
  /** false: sandboxes are not told where the app's webhooks are (they post nothing; only pulls bring events). */
  sandboxWebhooks?: boolean;
  /**
   * The runtime the sandboxes run in (default: embedded, `sandbox_isolation` as configured, else `unsafe-none`:
   * plain processes start in a fraction of the time; the isolation tests ask for bubblewrap).
   */
  runtime?: (dataDir: string) => Promise<SandboxRuntime>;
}

/**
 * Declares `body`'s tests on SQLite (rate limits in process) and on PostgreSQL with Redis, each against a real
 * server listening on a free port; `api()` is usable inside the tests.
 */
export function describeApi(name: string, body: (api: () => Api) => void, options: ApiOptions = {}): void {
  describeEachDatabase(name, (each) => {
    let api: Api | undefined;
    let server: AppServer | undefined;
    const keyPrefix = uniquePrefix();
    let closeCache = async () => {};
    let events: ConversationEvents | undefined;
    let runtime: SandboxRuntime | undefined;
    beforeAll(async () => {
      const target = await each.target();
      const keyRing = new KeyRing(newSecretsKey());
      const repositories = createRepositories(await each.open({ target, keyRing }), keyRing);
      const cache =
        each.dialect === 'postgres' ? await openCache({ redisUrl: REDIS_URL, keyPrefix }) : new MemoryCache();
      const replicaCaches: Cache[] = [];
      closeCache = async () => {
        await Promise.all(replicaCaches.map((replica) => replica.close()));
        await cache.close();
        if (each.dialect === 'postgres') await removeKeys(keyPrefix);
      };
      const config = { log_level: 'info' as const, ...options.config };
      const limits = { ...DEFAULT_RATE_LIMITS, ...options.rateLimits };
      const logs: string[] = [];
      const note = (details: object, message: string) => logs.push(JSON.stringify({ ...details, message }));
      const log = { warn: note, error: note };
      // The users' provider tokens as the server reads them to use them (renewed when they expire).
      const gitTokens = new GitTokenRenewal({
        store: repositories.providerTokens,
        clients: renewalClientsOf(config),
        urls: gitUrlsOf(config),
        log,
      });
      const githubApp = gitHubAppOf(config);
      const marketplaces = marketplacesOf(
        repositories,
        appServerConfig(config),
        gitUrlsOf(config),
        gitTokens,
        skillRepositoryTableRows(discoverySettingsOf(config, gitTokens, githubApp)),
      );
      let url = '';
      const oidc = testOidcLogin(config, { keyRing, cache, repositories }, () => url);
      const deps = {
        ...accountRouteDeps(repositories, config, new RateLimiter(cache), limits),
        marketplaces: marketplaces.personal,
        ...(oidc ? { oidc } : {}),
      };
      const startLimit = rateLimited(deps.rateLimiter, limits, 'sandbox_start');
      const told: { running?: (sandbox: Sandbox, resumed: boolean) => Promise<void> } = {};
      // The app's Git provider URLs reach the sandboxes as the server gives them (sandboxes/launch.ts).
      const specs = withGitProviders(SANDBOX_SPECS, appServerConfig(config));
      // Sandboxes run as another user, who must reach the runtime's root (mkdtemp made the directory 0700).
      await chmod(target.dataDir, 0o711);
      const defaults = { sandbox_isolation: 'unsafe-none' as const, sandbox_command: SANDBOX_COMMAND };
      const full = appServerConfig({ ...defaults, ...config, data_dir: target.dataDir });
      const opened = await (options.runtime?.(target.dataDir) ?? openSandboxRuntime(full));
      runtime = opened;
      const webhooks = () => (options.sandboxWebhooks === false ? {} : webhookEnvironment(url));
      const sandboxes = await RuntimeSandboxes.open({
        repository: repositories.sandboxes,
        runtime: runtime.runtime,
        specs,
        maxRunningPerUser: options.config?.max_running_sandboxes ?? 10,
        launch: sandboxLaunch(full, repositories, webhooks, () => url, runtime),
        pauseOnClose: runtime.embedded,
        onRunning: (sandbox, resumed) => told.running?.(sandbox, resumed),
      });
      const sweepIntervalMs = (options.config?.event_sweep_interval ?? 0) * 1000;
      events = new ConversationEvents({ repositories, sandboxes, cache, log, sweepIntervalMs });
      told.running = whenSandboxRuns(events, new PendingMessages({ repositories, sandboxes, log }), log, () => url);
      const eventDeps = { conversations: repositories.conversations, sandboxes, events };
      const identity = { apiKeys: repositories.apiKeys, sessions: repositories.sessions };
      const conversations = conversationApi({
        repositories,
        sandboxes,
        specs,
        cache,
        gitUrls: gitUrlsOf(config),
        gitTokens,
        publicUrl: () => url,
        allowPrivateHosts: config.git_allow_private_hosts,
        pluginTrust: pluginTrustGate(repositories, gitTokens, gitUrlsOf(config), target.dataDir),
        llmDefaults: deps.llmDefaults,
        autoLoad: marketplaces.autoLoad,
        skillRepositories: new SkillRepositoryDiscovery({
          git: marketplaces.git,
          ...discoverySettingsOf(config, gitTokens, githubApp),
        }),
        githubApp,
        startLimit,
      });
      server = await buildAppServer({
        config,
        apiRoutes: [
          accountApi(deps),
          sandboxApi({ sandboxes, specs, startLimit }),
          sandboxSecretRoutes({
            sandboxes,
            sources: { secrets: repositories.secrets, providerTokens: gitTokens },
          }),
          eventsApi(eventDeps),
          conversations,
          pendingMessagesApi({ repositories, sandboxes }),
          launchApi,
          pluginDirectoryApi(
            pluginDirectoryOf(appServerConfig({ data_dir: target.dataDir, ...config }), () => url),
            repositories,
          ),
          pluginTrustApi(repositories),
          marketplaceApi(marketplaces),
          catalogApi({
            defaultModel: config.llm_model,
            marketplaces,
            settings: repositories.settings,
            cache,
          }),
          llmProfilesApi({
            repositories,
            sandboxes,
            llmDefaults: deps.llmDefaults,
            saveLimit: rateLimited(deps.rateLimiter, limits, 'secret_write'),
          }),
          gitBrowseApi({
            providerTokens: gitTokens,
            gitUrls: gitUrlsOf(config),
            allowPrivateHosts: config.git_allow_private_hosts,
          }),
          gitAppWebhookRoutes({
            secret: config.git_github_app_webhook_secret,
            events: repositories.gitAppEvents,
            app: githubApp,
          }),
          notApplicableApi,
        ],
        socketRoutes: [
          eventSocket({ ...eventDeps, identity }),
          sharedApi({ repositories, rateLimiter: deps.rateLimiter, rateLimits: limits }),
          legacyApi,
        ],
        logStream: { write: (line: string) => logs.push(line) },
      });
      await server.app.listen({ host: '127.0.0.1', port: 0 });
      url = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
      const call = callOf(url);
      api = {
        dialect: each.dialect,
        dataDir: target.dataDir,
        target,
        keyRing,
        url,
        repositories,
        sandboxes,
        runtime,
        workspaceOf: (sandboxId) => sandboxWorkspace(opened.runtime, target.dataDir, sandboxId),
        events,
        replicaCache: async () => {
          if (each.dialect !== 'postgres') return cache;
          const replica = await openCache({ redisUrl: REDIS_URL, keyPrefix });
          replicaCaches.push(replica);
          return replica;
        },
        logs,
        user: (settings) => newUser(repositories, call, settings),
        users: <N extends number>(count: N, settings?: object) =>
          Promise.all(Array.from({ length: count }, () => newUser(repositories, call, settings))) as Promise<
            Tuple<TestUser, N>
          >,
        call,
      };
    });
    // Closing stops every sandbox still running (each agent server has 10 s to stop, then its webhook posts end):
    // on a loaded machine that took longer than vitest's 60 s for a file that leaves several running.
    afterAll(async () => {
      await events?.close();
      await server?.close();
      await runtime?.runtime.close();
      await closeCache();
    }, 180_000);
    body(() => {
      if (!api) throw new Error('the API is started in beforeAll');
      return api;
    });
  });
}

async function newUser(repositories: Repositories, call: Api['call'], settings?: object): Promise<TestUser> {
  const email = `user-${randomUUID()}@example.test`;
  const created = await repositories.users.create({ email, name: 'Test User' });
  const { key } = await repositories.apiKeys.create({ userId: created.id, name: 'test' });
  const user = { id: created.id, email, key, headers: { authorization: `Bearer ${key}` } };
  if (settings) {
    const answer = await call('/api/v1/settings', { method: 'POST', as: user, body: settings });
    if (answer.status !== 200) throw new Error(`settings refused (${answer.status}): ${answer.text}`);
  }
  return user;
}

function callOf(url: string) {
  return async (path: string, { method = 'GET', as, body, headers = {} }: CallOptions = {}): Promise<Answer> => {
    const response = await fetch(`${url}${path}`, {
      method,
      redirect: 'manual',
      headers: {
        ...(as?.headers ?? {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {}
    return { status: response.status, headers: response.headers, body: parsed, text };
  };
}
