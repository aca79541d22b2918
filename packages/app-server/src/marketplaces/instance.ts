import type { MarketplaceEntry } from './composition.ts';
import { nameFromSource, nameProblem, repoPathProblem, sourceProblem } from './registration.ts';

/**
 * The instance's marketplaces, from the `instance_marketplaces` setting: one item each, written
 * `source#name#ref#repo_path#auto_load` where everything after the source may be left out or empty (the name
 * defaults to the source's, `auto_load` to true, as for OpenHands' instance marketplaces). Read-only through the API.
 */
export function instanceMarketplaces(items: readonly string[]): { entries: MarketplaceEntry[]; problems: string[] } {
  const entries: MarketplaceEntry[] = [];
  const problems: string[] = [];
  const names = new Set<string>();
  items.forEach((item, index) => {
    const [source = '', name = '', ref = '', repoPath = '', autoLoad = ''] = item.split('#').map((p) => p.trim());
    const entryName = name || nameFromSource(source);
    const why =
      sourceProblem(source) ??
      (nameProblem(entryName) && `name: ${nameProblem(entryName)}`) ??
      (repoPathProblem(repoPath || null) && `repo_path: ${repoPathProblem(repoPath || null)}`) ??
      (autoLoad && !/^(true|false)$/.test(autoLoad) ? 'auto_load must be true or false' : null) ??
      (names.has(entryName) ? `another instance marketplace is named ${entryName}` : null);
    if (why) {
      problems.push(`instance_marketplaces[${index}]: ${why} (in '${item.replace(/\/\/[^/@\s]*@/, '//***@')}')`);
      return;
    }
    names.add(entryName);
    entries.push({
      name: entryName,
      source,
      ref: ref || null,
      repo_path: repoPath || null,
      auto_load: autoLoad !== 'false',
      updates: 'follow',
      approved_ref: null,
      scope: 'instance',
      org_id: null,
      registered_by: null,
      registered_at: null,
      updated_at: null,
    });
  });
  return { entries, problems };
}
