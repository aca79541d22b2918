import type { ComponentChanges, PluginChanges, PluginInspection } from '@bosun/protocol';
import type { GitAuth, GitCache } from '@bosun/sources';
import type { MarketplaceEntry } from './composition.ts';
import { sourcesLibrary } from './git-access.ts';

/** What each plugin of a marketplace holds at one commit, by the plugin's entry name. */
export async function pluginsAt(
  entry: MarketplaceEntry,
  commit: string,
  cache: GitCache,
  authFor: (source: string) => GitAuth | undefined,
): Promise<Map<string, PluginInspection>> {
  const sources = await sourcesLibrary();
  const read = await sources.readMarketplace({ ...entry, ref: commit }, cache, authFor(entry.source));
  const plugins = new Map<string, PluginInspection>();
  for (const listed of read.parsed.entries) {
    const { plugin } = sources.marketplacePlugin(listed, read);
    if (!plugin) continue;
    const fetched = await sources.fetchPlugin(plugin.reference, {
      cache,
      auth: authFor(plugin.reference.source),
      entry: plugin.entry,
    });
    plugins.set(listed.name, sources.pluginInspection(fetched));
  }
  return plugins;
}

/**
 * What moving from `before` to `after` changes in each plugin (by entry name, every plugin of either commit):
 * skills, commands, MCP servers and hooks added or removed; a hook whose command changed is one removed and one
 * added (a hook is `Event [matcher] if rule: command`).
 */
export function updateChanges(
  before: ReadonlyMap<string, PluginInspection>,
  after: ReadonlyMap<string, PluginInspection>,
): Map<string, PluginChanges> {
  const changes = new Map<string, PluginChanges>();
  for (const name of new Set([...before.keys(), ...after.keys()])) {
    const was = before.get(name);
    const is = after.get(name);
    const diff = {
      skills: compare(
        was?.skills.map((s) => s.name),
        is?.skills.map((s) => s.name),
      ),
      commands: compare(
        was?.commands.map((c) => c.name),
        is?.commands.map((c) => c.name),
      ),
      hooks: compare(was?.hooks.map(hookText), is?.hooks.map(hookText)),
      mcp_servers: compare(was?.mcp_servers, is?.mcp_servers),
    };
    const changed = Object.values(diff).some((d) => d.added.length || d.removed.length);
    const status = !was ? 'added' : !is ? 'removed' : changed ? 'changed' : 'unchanged';
    changes.set(name, { status, ...diff });
  }
  return changes;
}

function hookText(hook: PluginInspection['hooks'][number]): string {
  return `${hook.event} [${hook.matcher}]${hook.if ? ` if ${hook.if}` : ''}: ${hook.command}`;
}

function compare(before: readonly string[] = [], after: readonly string[] = []): ComponentChanges {
  return {
    added: after.filter((item) => !before.includes(item)),
    removed: before.filter((item) => !after.includes(item)),
  };
}
