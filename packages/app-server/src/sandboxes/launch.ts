import type { AppServerConfig } from '../config.ts';
import type { Repositories } from '../data/index.ts';
import { effectiveLlm } from '../settings/llm-defaults.ts';
import type { SandboxRuntime } from './open-runtime.ts';
import type { SandboxLaunch } from './runtime-sandboxes.ts';
import { sandboxNetwork } from './sandbox-network.ts';
import type { SandboxSpec } from './sandboxes.ts';

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
export function warnWhenNotIsolated(
  runtime: { health(): Promise<{ isolated: boolean }> },
  log: { warn(details: object, message: string): void },
): void {
  runtime
    .health()
    .then(({ isolated }) => {
      if (!isolated) log.warn({}, 'sandboxes are NOT isolated: they see what the runtime sees');
    })
    .catch((error) => log.warn({ err: error }, 'the sandboxes runtime does not answer its health check'));
}
