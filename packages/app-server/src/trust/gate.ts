import type { AppConversationStartRequest, PluginTrustSource } from '@bosun/protocol';
import { type GitAuth, gitAuthFromSecrets, mapLimit } from '@bosun/sources';
import type { GitProviders } from '@bosun/sources';
import type { Repositories } from '../data/index.ts';
import { type ProviderTokenReader, providerTokenSecrets } from '../git/token-renewal.ts';
import type { PluginCommits } from './commits.ts';

const HOW_TO_CONFIRM = 'Send them back as confirmed_plugin_sources, or POST each to /api/v1/plugin-trust.';

/** A start refused for plugins from sources the user has not confirmed trust in (a 409 naming them). */
export class PluginTrustRequiredError extends Error {
  readonly statusCode = 409;
  constructor(readonly sources: PluginTrustSource[]) {
    const named = sources.map((s) => `${s.source}${s.commit ? ` at ${s.commit}` : ' (any commit)'}`).join(', ');
    super(`Confirm that you trust ${named}: plugins run with your secrets. ${HOW_TO_CONFIRM}`);
  }
}

export interface PluginTrustDeps {
  repositories: Pick<Repositories, 'pluginTrust'>;
  /** The users' provider tokens, renewed when they expire. */
  gitTokens: ProviderTokenReader;
  commits: PluginCommits;
  providers: Required<GitProviders>;
}

/**
 * The trust check of a start: each plugin's source at the commit it names now must be confirmed by the user, in
 * the request (`confirmed_plugin_sources`, recorded) or before. A request without that field (as OpenHands' own
 * clients send) is refused with a 409 naming what to confirm, never started with plugins unconfirmed.
 */
export class PluginTrustGate {
  constructor(private readonly deps: PluginTrustDeps) {}

  /** The request with each plugin pinned to the commit confirmed (so the sandbox loads exactly that one). */
  async admit(userId: string, request: AppConversationStartRequest): Promise<AppConversationStartRequest> {
    const plugins = request.plugins ?? [];
    if (plugins.length === 0) return request;
    const auth = await this.authOf(userId);
    // A source the server cannot read now is trusted only as "any commit": what the sandbox loads is unknown.
    // Each source and ref is asked once, a few at a time (a request may name up to 100 plugins).
    const keyOf = (plugin: { source: string; ref?: string | null }) => `${plugin.source}\n${plugin.ref ?? ''}`;
    const distinct = [...new Map(plugins.map((plugin) => [keyOf(plugin), plugin])).values()];
    const resolved = await mapLimit(distinct, 8, (plugin) =>
      this.deps.commits.commitOf(plugin, auth).catch(() => null),
    );
    const byKey = new Map(distinct.map((plugin, index) => [keyOf(plugin), resolved[index] ?? null]));
    const commits = plugins.map((plugin) => byKey.get(keyOf(plugin)) ?? null);
    const { pluginTrust } = this.deps.repositories;
    const wanted = unique(plugins.map((plugin, index) => ({ source: plugin.source, commit: commits[index] ?? null })));
    const confirmed = request.confirmed_plugin_sources ?? [];
    const missing: PluginTrustSource[] = [];
    for (const source of wanted) {
      const given = confirmed.find(
        (c) => c.source === source.source && (c.commit === null || c.commit === source.commit),
      );
      // Recorded as given: `commit: null` is trust in any commit of the source.
      if (given) await pluginTrust.confirm(userId, source.source, given.commit);
      else if (!(await pluginTrust.trusts(userId, source.source, source.commit))) missing.push(source);
    }
    if (missing.length > 0) throw new PluginTrustRequiredError(missing);
    return {
      ...request,
      plugins: plugins.map((plugin, index) => {
        const commit = commits[index];
        return commit ? { ...plugin, ref: commit } : plugin;
      }),
    };
  }

  /** What the server authenticates to a provider with: the user's token for it. */
  private async authOf(userId: string): Promise<(url: string) => GitAuth | undefined> {
    const secrets = await providerTokenSecrets(this.deps.gitTokens, userId);
    return (url) => gitAuthFromSecrets(url, secrets, this.deps.providers);
  }
}

function unique(sources: PluginTrustSource[]): PluginTrustSource[] {
  const seen = new Map(sources.map((s) => [`${s.source}\n${s.commit}`, s]));
  return [...seen.values()];
}
