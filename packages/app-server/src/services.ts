import type { AppServerConfig } from './config.ts';
import type { AppContext, AppServices } from './context.ts';
import type { ConversationLog } from './conversations/deps.ts';
import { renewLookupKeys } from './conversations/lookup-keys.ts';
import { PendingMessages } from './conversations/pending-messages.ts';
import { type Repositories, createRepositories } from './data/index.ts';
import { ConversationEvents, webhookEnvironmentOf } from './events/index.ts';
import { gitHubAppOf } from './git/apps/github-app.ts';
import { gitUrlsOf } from './git/provider-urls.ts';
import { GitTokenRenewal, renewalClientsOf } from './git/token-renewal.ts';
import { RateLimiter } from './rate-limit/index.ts';
import { proxiedAgentPath, proxiesSandboxUrls } from './sandboxes/browser-urls.ts';
import {
  RuntimeSandboxes,
  SANDBOX_SPECS,
  type Sandbox,
  type SandboxLaunch,
  type SandboxRuntime,
  type SandboxSpec,
  openSandboxRuntime,
  sandboxNetwork,
} from './sandboxes/index.ts';
import { effectiveLlm } from './settings/llm-defaults.ts';
import { appUrlOf } from './settings/sandbox-secrets.ts';

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
  const told: { running?: (sandbox: Sandbox) => Promise<void> } = {};
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
    onRunning: (sandbox: Sandbox) => told.running?.(sandbox),
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
  return { repositories, rateLimiter, sandboxes, sandboxRuntime, specs, events, gitTokens, githubApp };
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
): (sandbox: Sandbox) => Promise<void> {
  return async (sandbox) => {
    events.sandboxRunning(sandbox);
    await renewLookupKeys(sandbox, appUrl()).catch((error) =>
      log.warn({ err: error, sandboxId: sandbox.id }, 'sandbox secrets: lookups not renewed'),
    );
    pending.deliverWaiting().catch((error) => log.warn({ err: error }, 'pending messages: they wait'));
  };
}

/** The app's Git provider URLs given to each sandbox too, so its agent resolves `github:` plugins the same way. */
export function withGitProviders(specs: readonly SandboxSpec[], config: AppServerConfig): SandboxSpec[] {
  const env: Record<string, string> = {};
  if (config.git_github_url) env.BOSUN_GIT_GITHUB_URL = config.git_github_url;
  if (config.git_gitlab_url) env.BOSUN_GIT_GITLAB_URL = config.git_gitlab_url;
  if (config.git_bitbucket_url) env.BOSUN_GIT_BITBUCKET_URL = config.git_bitbucket_url;
  return specs.map((spec) => ({ ...spec, initialEnv: { ...env, ...spec.initialEnv } }));
}

/**
 * What a new sandbox of a user starts with: where to post its webhooks, and a network that reaches what it needs
 * (decided per start): the LLM endpoint the user's conversations use (their settings' base URL, else the app's
 * `llm_base_url`), this server's own URL and the Git providers' configured base URLs, added to
 * `sandbox_allow_hosts` under `allow` and the only hosts under `none`. Read at each start: a sandbox keeps its network when resumed. Sandboxes that are not isolated at all
 * (`sandbox_isolation: unsafe-none`, embedded) are on the host's network: they are given `open`, which says so.
 */
export function sandboxLaunch(
  config: AppServerConfig,
  repositories: Repositories,
  webhooks: () => Record<string, string>,
  publicUrl: () => string,
  runtime: Pick<SandboxRuntime, 'embedded'>,
): (ownerId: string | null) => Promise<SandboxLaunch> {
  const plain = runtime.embedded && config.sandbox_isolation === 'unsafe-none';
  const mode = plain ? 'open' : config.sandbox_network;
  const defaults = { model: config.llm_model, baseUrl: config.llm_base_url, apiKey: config.llm_api_key };
  return async (ownerId) => {
    const llm = effectiveLlm((ownerId === null ? undefined : await repositories.settings.get(ownerId)) ?? {}, defaults);
    let own: string | undefined;
    try {
      own = publicUrl();
    } catch {}
    // The Git hosts configured for the providers (a company GitLab, say): marketplaces and plugins are cloned there.
    const gitHosts = [config.git_github_url, config.git_gitlab_url, config.git_bitbucket_url];
    const network = sandboxNetwork(mode, config.sandbox_allow_hosts, [llm.baseUrl, own, ...gitHosts]);
    return { environment: webhooks(), network };
  };
}

/** A runtime service that does not isolate its sandboxes is said so in the log (an embedded one says so itself). */
function warnWhenNotIsolated(runtime: { health(): Promise<{ isolated: boolean }> }, log: ConversationLog): void {
  runtime
    .health()
    .then(({ isolated }) => {
      if (!isolated) log.warn({}, 'sandboxes are NOT isolated: they see what the runtime sees');
    })
    .catch((error) => log.warn({ err: error }, 'the sandboxes runtime does not answer its health check'));
}
