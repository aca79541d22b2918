import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { MarketplaceListing, PluginProblem, RegisteredMarketplace, ResolvedPlugin } from '@bosun/protocol';
import { type GitAuth, type GitCache, redactCredentials } from '../git/index.ts';
import { checkoutRepository } from '../plugins/checkout.ts';
import { type FetchedPlugin, type PluginReference, fetchPlugin } from '../plugins/fetch.ts';
import { MANIFEST_DIRS } from '../plugins/manifest.ts';
import { error } from '../plugins/problems.ts';
import { type ParsedEntry, type ParsedMarketplace, parseMarketplace } from './manifest.ts';
import { type MarketplaceLocation, autoLoadSelection, entryReference } from './resolve.ts';

/** A marketplace read from its repository; `location` is null when it could not be fetched. */
export interface ReadMarketplace {
  location: MarketplaceLocation | null;
  /** The `marketplace.json` read, relative to the marketplace directory. */
  manifestPath: string | null;
  parsed: ParsedMarketplace;
}

/** Fetches a marketplace repository and reads its `marketplace.json`; every failure is a problem. */
export async function readMarketplace(
  reference: PluginReference,
  cache: GitCache,
  auth?: GitAuth,
): Promise<ReadMarketplace> {
  const failed = (message: string, location: MarketplaceLocation | null): ReadMarketplace => ({
    location,
    manifestPath: null,
    parsed: { name: null, owner: null, description: null, entries: [], problems: [error(null, message)] },
  });
  const fetching = `the marketplace ${redactCredentials(reference.source)}`;
  const checkout = await checkoutRepository(cache, reference, reference.ref ?? null, auth, fetching);
  const { sha } = checkout;
  const location =
    sha === null ? null : { source: reference.source, resolved_ref: sha, repo_path: reference.repo_path ?? null };
  if ('problem' in checkout) return failed(checkout.problem, location);
  const { dir } = checkout;
  for (const manifestDir of MANIFEST_DIRS) {
    const path = `${manifestDir}/marketplace.json`;
    const text = await readFile(join(dir, path), 'utf8').catch(() => null);
    if (text === null) continue;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      return { ...failed(`${path} is not valid JSON: ${(e as Error).message}`, location), manifestPath: path };
    }
    return { location, manifestPath: path, parsed: parseMarketplace(json, path) };
  }
  return failed(`no marketplace.json in ${MANIFEST_DIRS.map((d) => `${d}/`).join(', ')}`, location);
}

/** The marketplace's entries resolved to fetchable sources, with their problems (`bosun marketplace inspect`). */
export function marketplaceListing(read: ReadMarketplace): MarketplaceListing {
  const { parsed, location } = read;
  return {
    name: parsed.name,
    owner: parsed.owner,
    description: parsed.description,
    manifest: read.manifestPath,
    resolved_ref: location?.resolved_ref ?? null,
    entries: parsed.entries.map((entry) => {
      const { reference, problems } = location
        ? entryReference(entry, location)
        : { reference: null, problems: [] as PluginProblem[] };
      return {
        name: entry.name,
        description: entry.description,
        version: entry.version,
        source: reference ? redactCredentials(reference.source) : null,
        ref: reference?.ref ?? null,
        repo_path: reference?.repo_path ?? null,
        problems: [...entry.problems, ...problems],
      };
    }),
    problems: parsed.problems,
  };
}

/** One plugin a registered marketplace loads: what to fetch, and the entry standing in for `plugin.json`. */
export interface MarketplacePlugin {
  reference: PluginReference;
  entry: { json: Record<string, unknown>; path: string };
}

/**
 * What a registration's `auto_load` selects from a marketplace: the plugins to fetch, and, for what cannot be
 * loaded (the marketplace itself, an entry, a name not listed), records that say why.
 */
export function autoLoadedPlugins(
  registration: Pick<RegisteredMarketplace, 'name' | 'source' | 'auto_load'>,
  read: ReadMarketplace,
): { plugins: MarketplacePlugin[]; failures: ResolvedPlugin[] } {
  const failure = (problems: PluginProblem[], entry?: ParsedEntry): ResolvedPlugin => ({
    source: redactCredentials(registration.source),
    original_ref: null,
    resolved_ref: read.location?.resolved_ref ?? null,
    repo_path: read.location?.repo_path ?? null,
    marketplace: registration.name,
    name: entry?.name ?? null,
    problems,
  });
  const failures: ResolvedPlugin[] = [];
  const fatal = read.parsed.problems.filter((p) => p.severity === 'error');
  if (!read.location || fatal.length) return { plugins: [], failures: [failure(read.parsed.problems)] };
  const { selected, problems } = autoLoadSelection(read.parsed.entries, registration.auto_load);
  if (problems.length) failures.push(failure(problems));
  const plugins: MarketplacePlugin[] = [];
  for (const entry of selected) {
    const resolved = marketplacePlugin(entry, read);
    if (!resolved.plugin) failures.push(failure([...entry.problems, ...resolved.problems], entry));
    else plugins.push(resolved.plugin);
  }
  return { plugins, failures };
}

/** What to fetch for one entry of a marketplace read, with the entry standing in for `plugin.json`. */
export function marketplacePlugin(
  entry: ParsedEntry,
  read: ReadMarketplace,
): { plugin: MarketplacePlugin | null; problems: PluginProblem[] } {
  if (!read.location) return { plugin: null, problems: [] };
  const { reference, problems } = entryReference(entry, read.location);
  if (!reference) return { plugin: null, problems };
  return { plugin: { reference, entry: { json: entry.json, path: read.manifestPath ?? '' } }, problems };
}

/** Fetches the plugins a registration auto-loads (see `autoLoadedPlugins`), each at most once. */
export async function fetchMarketplacePlugins(
  registration: Pick<RegisteredMarketplace, 'name' | 'source' | 'ref' | 'repo_path' | 'auto_load'>,
  cache: GitCache,
  authFor: (source: string) => GitAuth | undefined,
): Promise<{ fetched: (FetchedPlugin & { plugin_ref: MarketplacePlugin })[]; failures: ResolvedPlugin[] }> {
  if (registration.auto_load === false) return { fetched: [], failures: [] };
  const read = await readMarketplace(registration, cache, authFor(registration.source));
  const { plugins, failures } = autoLoadedPlugins(registration, read);
  const fetched = await Promise.all(
    plugins.map(async (plugin) => ({
      ...(await fetchPlugin(plugin.reference, {
        cache,
        auth: authFor(plugin.reference.source),
        marketplace: registration.name,
        entry: plugin.entry,
      })),
      plugin_ref: plugin,
    })),
  );
  return { fetched, failures };
}
