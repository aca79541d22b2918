import { posix } from 'node:path';
import type { PluginProblem } from '@bosun/protocol';
import type { PluginReference } from '../plugins/fetch.ts';
import { error } from '../plugins/problems.ts';
import type { ParsedEntry } from './manifest.ts';

/** Where a marketplace was read from: its repository, the commit read and its directory there. */
export interface MarketplaceLocation {
  source: string;
  resolved_ref: string;
  repo_path: string | null;
}

/**
 * The plugin an entry names, as something to fetch. A relative entry is in the marketplace's repository, at the
 * very commit the marketplace was read from (so marketplace and plugin agree); its path is relative to the
 * marketplace's directory and may not leave the repository. A Git entry is its own repository at its `sha`
 * (which wins) or `ref`.
 */
export function entryReference(
  entry: ParsedEntry,
  location: MarketplaceLocation,
): { reference: PluginReference | null; problems: PluginProblem[] } {
  const source = entry.source;
  if (!source) return { reference: null, problems: [] };
  if (source.type === 'git') {
    return { reference: { source: source.source, ref: source.ref, repo_path: source.path }, problems: [] };
  }
  const joined = posix.normalize(posix.join(location.repo_path ?? '.', source.path));
  if (joined === '..' || joined.startsWith('../')) {
    return { reference: null, problems: [error(null, `'${source.path}' leads outside the marketplace repository`)] };
  }
  return {
    reference: { source: location.source, ref: location.resolved_ref, repo_path: joined === '.' ? null : joined },
    problems: [],
  };
}

/**
 * The entries `auto_load` selects: every one (`true`), none (`false`), or those named (a name that is not in the
 * marketplace is a problem, never silently skipped).
 */
export function autoLoadSelection(
  entries: readonly ParsedEntry[],
  autoLoad: boolean | readonly string[],
): { selected: ParsedEntry[]; problems: PluginProblem[] } {
  if (autoLoad === false) return { selected: [], problems: [] };
  if (autoLoad === true) return { selected: [...entries], problems: [] };
  const byName = new Map(entries.map((entry) => [entry.name, entry]));
  const problems = autoLoad
    .filter((name) => !byName.has(name))
    .map((name) => error(null, `auto_load names '${name}', which the marketplace does not list`));
  const selected = [...new Set(autoLoad)].flatMap((name) => byName.get(name) ?? []);
  return { selected, problems };
}
