import { entryReference, fetchPlugin, formatProblem, readMarketplace } from '@bosun/sources';
import type { Conversation } from '../conversations/conversation.ts';
import type { RecordedPlugin } from '../conversations/record.ts';
import { type PluginLoading, gitAuthFor } from './plugins.ts';

/**
 * Why a plugin could not be loaded: `input` (the reference names nothing loadable), `fetch` (a Git failure) or
 * `not-ready` (the conversation's agent was never built).
 */
export class PluginLoadError extends Error {
  constructor(
    readonly reason: 'input' | 'fetch' | 'not-ready',
    message: string,
  ) {
    super(message);
  }
}

/**
 * Fetches plugin `name` of the conversation's registered marketplace `marketplace` (OpenHands' `load_plugin`,
 * `name@marketplace`): the record to add to the conversation's plugins, pinned to the commit fetched as
 * auto-loaded plugins are, so that the agent loads it when it is next built. Already recorded: null.
 */
export async function fetchMarketplacePlugin(
  conversation: Conversation,
  loading: Required<Pick<PluginLoading, 'git'>> & PluginLoading,
  secrets: () => Record<string, string>,
  name: string,
  marketplace: string,
): Promise<RecordedPlugin | null> {
  const registrations = conversation.record.request.agent.agent_context?.registered_marketplaces ?? [];
  const registration = registrations.find((r) => r.name === marketplace);
  if (!registration) {
    const known = registrations.map((r) => r.name).join(', ') || 'none';
    throw new PluginLoadError('input', `No marketplace is registered as '${marketplace}' (registered: ${known})`);
  }
  const recorded = conversation.record.plugins;
  // Until the agent is first built, its own plugins are not recorded yet: they would be lost.
  if (!recorded) throw new PluginLoadError('not-ready', 'The conversation has no agent yet: run it first.');
  if (recorded.some((p) => p.resolved.marketplace === marketplace && p.resolved.name === name && p.fetch)) {
    return null;
  }
  const providers = loading.providers ?? {};
  const authFor = (source: string) => gitAuthFor(source, providers, secrets);
  const read = await readMarketplace(registration, loading.git, authFor(registration.source));
  const fatal = read.parsed.problems.filter((p) => p.severity === 'error');
  if (!read.location || fatal.length) {
    throw new PluginLoadError('fetch', `Marketplace '${marketplace}': ${fatal.map(formatProblem).join('; ')}`);
  }
  const entry = read.parsed.entries.find((e) => e.name === name);
  if (!entry) {
    const listed = read.parsed.entries.map((e) => e.name).join(', ') || 'none';
    throw new PluginLoadError('input', `Marketplace '${marketplace}' lists no plugin '${name}' (it lists: ${listed})`);
  }
  const { reference, problems } = entryReference(entry, read.location);
  if (!reference) {
    const why = [...entry.problems, ...problems].map(formatProblem).join('; ');
    throw new PluginLoadError('input', `Plugin '${name}@${marketplace}' cannot be loaded: ${why}`);
  }
  const entryJson = { json: entry.json, path: read.manifestPath ?? '' };
  const fetched = await fetchPlugin(reference, {
    cache: loading.git,
    auth: authFor(reference.source),
    marketplace,
    entry: entryJson,
  });
  if (!fetched.plugin) {
    const why = fetched.resolved.problems.map(formatProblem).join('; ');
    throw new PluginLoadError('fetch', `Plugin '${name}@${marketplace}' could not be fetched: ${why}`);
  }
  return { resolved: fetched.resolved, fetch: reference, entry: entryJson };
}
