import type { NewEvent, ResolvedPlugin, ResolvedStartRequest, ValidationError } from '@bosun/protocol';
import {
  type FetchedPlugin,
  type GitCache,
  type GitProviders,
  type LoadedPlugin,
  type PluginReference,
  fetchMarketplacePlugins,
  fetchPlugin,
  gitAuthFromSecrets,
  pluginLabel,
  pluginProblemLines,
  pluginReferenceProblems,
  repositoryUrl,
} from '@bosun/sources';
import type { Conversation } from '../conversations/conversation.ts';
import type { RecordedPlugin } from '../conversations/record.ts';

/** The code of the ConversationErrorEvent saying that plugins (or marketplaces) could not be loaded. */
export const PLUGIN_ERROR_CODE = 'PluginLoadFailed';

/** Problems of the plugin references and registered marketplaces of a start request that are known at once. */
export function pluginRequestProblems(request: ResolvedStartRequest, providers: GitProviders): ValidationError[] {
  const plugins = (request.plugins ?? []).flatMap((plugin, index) =>
    pluginReferenceProblems(plugin, ['body', 'plugins', index], providers),
  );
  const registrations = request.agent.agent_context?.registered_marketplaces ?? [];
  const marketplaces = registrations.flatMap((registration, index) =>
    pluginReferenceProblems(
      registration,
      ['body', 'agent', 'agent_context', 'registered_marketplaces', index],
      providers,
    ),
  );
  const names = new Set<string>();
  const duplicates = registrations.flatMap((registration, index) => {
    const duplicate = names.has(registration.name);
    names.add(registration.name);
    return duplicate
      ? [
          {
            loc: ['body', 'agent', 'agent_context', 'registered_marketplaces', index, 'name'],
            msg: `another marketplace is registered as '${registration.name}'`,
            type: 'value_error',
          },
        ]
      : [];
  });
  return [...plugins, ...marketplaces, ...duplicates];
}

/** How the server fetches plugins (one Git cache and provider table per server) and who hears about them. */
export interface PluginLoading {
  git?: GitCache;
  providers?: GitProviders;
  /** Told which plugins a conversation loaded, with their problems (for the server's log; redacted). */
  onLoaded?: (conversationId: string, plugins: ResolvedPlugin[]) => void;
}

export interface ConversationPlugins {
  /** The plugins loaded, in merge order: auto-loaded marketplace plugins first, then `plugins` (later wins). */
  loaded: LoadedPlugin[];
  /** Of those, the ones a registered marketplace auto-loaded (their skills rank lowest). */
  fromMarketplaces: LoadedPlugin[];
  /** Every plugin record (the conversation's `resolved_plugins`). */
  resolved: ResolvedPlugin[];
  /**
   * What to tell the conversation: one ConversationErrorEvent when something failed the first time (or a recorded
   * commit cannot be loaded again); none otherwise.
   */
  errorEvent: NewEvent | null;
}

/**
 * The plugins of a conversation. The first time, each source is resolved, fetched and recorded (commit SHA
 * included); every later time (after a restart or an eviction) the recorded commits are loaded again, so the
 * conversation keeps the same code even when branches move. Nothing here throws for a plugin's fault.
 */
export async function loadConversationPlugins(
  conversation: Conversation,
  loading: PluginLoading,
  secrets: () => Record<string, string>,
  given: { readonly expired: boolean } = { expired: false },
): Promise<ConversationPlugins> {
  const { request } = conversation.record;
  const wanted = !!request.plugins?.length || !!request.agent.agent_context?.registered_marketplaces.length;
  if (!wanted && !conversation.record.plugins?.length)
    return { loaded: [], fromMarketplaces: [], resolved: [], errorEvent: null };
  if (!loading.git) {
    // A runner without a Git cache cannot fetch: say so rather than load nothing silently.
    const detail = 'Plugins cannot be loaded: this agent server has no Git cache';
    return {
      loaded: [],
      fromMarketplaces: [],
      resolved: [],
      errorEvent: { kind: 'ConversationErrorEvent', source: 'environment', code: PLUGIN_ERROR_CODE, detail },
    };
  }
  const options = { cache: loading.git, providers: loading.providers ?? {}, secrets };
  const authFor = (source: string) => gitAuthFor(source, options.providers, options.secrets);
  let fetched: (FetchedPlugin & { recorded: RecordedPlugin })[];
  /** What to report: everything the first time; later, only commits that could not be loaded again. */
  let reported: ResolvedPlugin[];
  if (conversation.record.plugins === undefined) {
    const registrations = request.agent.agent_context?.registered_marketplaces ?? [];
    const fromMarketplaces = await Promise.all(
      registrations.map((registration) => fetchMarketplacePlugins(registration, options.cache, authFor)),
    );
    const explicit = await Promise.all(
      (request.plugins ?? []).map(async (reference) => {
        const result = await fetchPlugin(reference, { cache: options.cache, auth: authFor(reference.source) });
        return { ...result, recorded: { resolved: result.resolved, fetch: referenceOf(reference) } };
      }),
    );
    fetched = [
      ...fromMarketplaces.flatMap(({ fetched: plugins, failures }) => [
        ...plugins.map((plugin) => ({
          ...plugin,
          recorded: { resolved: plugin.resolved, fetch: plugin.plugin_ref.reference, entry: plugin.plugin_ref.entry },
        })),
        ...failures.map((resolved) => ({ resolved, plugin: null, recorded: { resolved, fetch: null } })),
      ]),
      ...explicit,
    ];
    const records = fetched.map((f) => f.recorded);
    // Given up (past the setup deadline): the conversation started without them, and records none.
    if (!given.expired) {
      await conversation.update((record) => {
        record.plugins = records;
      });
    }
    reported = fetched.map((f) => f.resolved);
  } else {
    fetched = await Promise.all(
      conversation.record.plugins.map(async (recorded) => {
        if (!recorded.fetch || !recorded.resolved.resolved_ref)
          return { resolved: recorded.resolved, plugin: null, recorded };
        const result = await fetchPlugin(recorded.fetch, {
          cache: options.cache,
          auth: authFor(recorded.fetch.source),
          pinned: recorded.resolved.resolved_ref,
          marketplace: recorded.resolved.marketplace,
          ...(recorded.entry ? { entry: recorded.entry } : {}),
        });
        return { ...result, recorded };
      }),
    );
    reported = fetched.filter((f) => f.plugin === null && f.recorded.fetch).map((f) => f.resolved);
  }
  const resolved = fetched.map((f) => f.resolved);
  if (resolved.length) loading.onLoaded?.(conversation.id, resolved);
  return {
    loaded: fetched.flatMap((f) => (f.plugin ? [f.plugin] : [])),
    fromMarketplaces: fetched.flatMap((f) => (f.plugin && f.resolved.marketplace ? [f.plugin] : [])),
    resolved,
    errorEvent: errorEvent(reported),
  };
}

/** Git credentials for `source` from the conversation's secrets; none when it is not a repository. */
export function gitAuthFor(source: string, providers: GitProviders, secrets: () => Record<string, string>) {
  try {
    return gitAuthFromSecrets(repositoryUrl(source, providers), secrets(), providers);
  } catch {
    return undefined;
  }
}

function referenceOf(reference: PluginReference): PluginReference {
  return { source: reference.source, ref: reference.ref ?? null, repo_path: reference.repo_path ?? null };
}

function errorEvent(resolved: ResolvedPlugin[]): NewEvent | null {
  const lines = pluginProblemLines(resolved, (p) => p.severity === 'error');
  if (!lines.length) return null;
  return {
    kind: 'ConversationErrorEvent',
    source: 'environment',
    code: PLUGIN_ERROR_CODE,
    detail: `Some plugins could not be loaded (or only in part):\n${lines.join('\n')}`,
  };
}

export { pluginLabel };
