import type { AppServerConfig } from './config.ts';
import type { AppContext, AppServices } from './context.ts';
import type { ConversationLog } from './conversations/deps.ts';
import { PendingMessages } from './conversations/pending-messages.ts';
import { createRepositories } from './data/index.ts';
import { ConversationEvents, webhookEnvironmentOf } from './events/index.ts';
import { RateLimiter } from './rate-limit/index.ts';
import { LocalSandboxes, SANDBOX_SPECS, type Sandbox, type SandboxSpec } from './sandboxes/index.ts';

/** The agent server's own stop deadline is 10 s; SIGKILL comes after that. */
const STOP_GRACE_MS = 12_000;

/**
 * What several route modules share, built once per server over its database, cache and key ring: the
 * repositories, the rate limiter, the sandboxes (local processes in the data directory) and the conversations'
 * events. Undefined for a server without a database: it has no such routes.
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
  const told: { running?: (sandbox: Sandbox) => void } = {};
  const specs = withGitProviders(SANDBOX_SPECS, config);
  const sandboxes = await LocalSandboxes.open({
    repository: repositories.sandboxes,
    dataDir: config.data_dir,
    specs,
    ...(config.sandbox_command ? { command: config.sandbox_command } : {}),
    maxRunningPerUser: config.max_running_sandboxes,
    startTimeoutMs: config.sandbox_start_timeout * 1000,
    stopGraceMs: STOP_GRACE_MS,
    environment: webhookEnvironmentOf(context.publicUrl),
    onRunning: (sandbox: Sandbox) => told.running?.(sandbox),
  });
  const events = new ConversationEvents({
    repositories,
    sandboxes,
    cache,
    log,
    sweepIntervalMs: config.event_sweep_interval * 1000,
  });
  told.running = whenSandboxRuns(events, new PendingMessages({ repositories, sandboxes, log }), log);
  return { repositories, rateLimiter: new RateLimiter(cache), sandboxes, specs, events };
}

/**
 * What a sandbox that runs again (started, or resumed by any route) sets going: the app pulls the events it lacks
 * of its conversations, and the messages queued for them while it was paused are delivered.
 */
export function whenSandboxRuns(
  events: ConversationEvents,
  pending: PendingMessages,
  log: ConversationLog,
): (sandbox: Sandbox) => void {
  return (sandbox) => {
    events.sandboxRunning(sandbox);
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
