import type { MarketplaceEntryContents, MarketplaceListing } from '@bosun/protocol';
import type { GitAuth, GitCache } from '../git/index.ts';
import { fetchPlugin } from '../plugins/fetch.ts';
import { type LoadedPlugin, hookSummaries } from '../plugins/plugin.ts';
import { qualifiedName } from '../skills/names.ts';
import { type ReadMarketplace, marketplaceListing, marketplacePlugin } from './load.ts';

export interface InspectMarketplaceOptions {
  /** Also fetch and read the plugins of entries in other repositories (default: only the marketplace's own). */
  remote?: boolean;
}

/**
 * The listing of a marketplace with each entry's plugin read the very way a conversation loads it (the same
 * fetch, the same entry standing in for `plugin.json`), so inspection and loading report the same problems.
 * Entries in the marketplace's own repository are read from the commit already fetched; others only when asked.
 */
export async function inspectMarketplace(
  read: ReadMarketplace,
  cache: GitCache,
  authFor: (source: string) => GitAuth | undefined,
  options: InspectMarketplaceOptions = {},
): Promise<MarketplaceListing> {
  const listing = marketplaceListing(read);
  const entries = await Promise.all(
    read.parsed.entries.map(async (entry, index) => {
      const listed = listing.entries[index] as MarketplaceListing['entries'][number];
      const { plugin } = marketplacePlugin(entry, read);
      if (!plugin) return { ...listed, contents: null };
      if (entry.source?.type === 'git' && !options.remote) return listed;
      const fetched = await fetchPlugin(plugin.reference, {
        cache,
        auth: authFor(plugin.reference.source),
        entry: plugin.entry,
      });
      return {
        ...listed,
        contents: fetched.plugin ? contentsOf(fetched.plugin) : null,
        problems: [...listed.problems, ...fetched.resolved.problems],
      };
    }),
  );
  return { ...listing, entries };
}

function contentsOf(plugin: LoadedPlugin): MarketplaceEntryContents {
  return {
    plugin: plugin.name,
    // As the agent names them (and as `disabled_skills` turns them off): by plugin, like the commands.
    skills: plugin.skills.map((s) => qualifiedName(plugin.name, s.name)),
    commands: plugin.commands.map((c) => `/${c.name}`),
    agents: plugin.agents.map((a) => a.name),
    hooks: hookSummaries(plugin.hooks).map((h) => `${h.event} [${h.matcher}]${h.if ? ` if ${h.if}` : ''}`),
    mcp_servers: Object.keys(plugin.mcpServers),
    unsupported: plugin.unsupported,
  };
}
