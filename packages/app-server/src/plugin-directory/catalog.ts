import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DirectoryMarketplace, DirectoryPlugin, DirectoryPluginConfig } from '@bosun/protocol';
import { buildLaunchLink } from '@bosun/protocol';
import {
  type GitCache,
  type LoadedPlugin,
  type ParsedEntry,
  type ReadMarketplace,
  fetchPlugin,
  formatProblem,
  marketplacePlugin,
} from '@bosun/sources';
import { launchConfigOf, parameterDefaults } from './launch-config.ts';

/** Where the instance plugin marketplace is (the `plugin_directory_*` settings). */
export interface DirectoryLocation {
  source: string;
  ref: string | null;
  repo_path: string | null;
}

/** A plugin of the catalog with its launch configuration. */
export interface CatalogPlugin {
  plugin: DirectoryPlugin;
  config: DirectoryPluginConfig;
}

export interface Catalog {
  marketplace: DirectoryMarketplace;
  plugins: CatalogPlugin[];
}

export interface CatalogOptions {
  /** Reaches Git as the Skills & Plugins table does (through the host guard): the same hosts, the same problems. */
  cache: GitCache;
  featured: readonly string[];
  /** Where the web UI is, for launch links. */
  baseUrl: string;
}

/** The marketplace as the directory describes it. */
export function directoryMarketplace(location: DirectoryLocation, read: ReadMarketplace): DirectoryMarketplace {
  return {
    name: read.parsed.name,
    description: read.parsed.description,
    source: location.source,
    ref: location.ref,
    repo_path: location.repo_path,
    commit: read.location?.resolved_ref ?? null,
    fetched_at: new Date().toISOString(),
    problems: read.parsed.problems.map(formatProblem),
  };
}

/** An entry whose plugin is still being read: what its entry says (and where it is), marked `loading`. */
export function pendingPlugin(
  entry: ParsedEntry,
  read: ReadMarketplace,
  options: Pick<CatalogOptions, 'featured'>,
): CatalogPlugin {
  const reference = marketplacePlugin(entry, read).plugin?.reference;
  return {
    plugin: {
      id: entry.name,
      name: entry.name,
      description: entry.description,
      version: entry.version,
      tags: tagsOf(entry.json, null),
      featured: options.featured.includes(entry.name),
      source: { source: reference?.source ?? '', ref: reference?.ref ?? null, repo_path: reference?.repo_path ?? null },
      launch_url: null,
      loading: true,
      problems: [],
    },
    config: { entry_command: null, parameters: {}, examples: [], problems: [] },
  };
}

/**
 * One entry's plugin, read the very way the Skills & Plugins table reads it (`inspectMarketplace`: the same
 * fetch, the entry standing in for `plugin.json`), so both say the same problems in the same order.
 */
export async function catalogPlugin(
  entry: ParsedEntry,
  read: ReadMarketplace,
  options: CatalogOptions,
): Promise<CatalogPlugin> {
  const resolved = marketplacePlugin(entry, read);
  const problems = [...entry.problems, ...resolved.problems];
  const reference = resolved.plugin?.reference ?? null;
  let ref = reference?.ref ?? null;
  let loaded: LoadedPlugin | null = null;
  if (resolved.plugin && reference) {
    const fetched = await fetchPlugin(reference, { cache: options.cache, entry: resolved.plugin.entry });
    problems.push(...fetched.resolved.problems);
    ref = fetched.resolved.resolved_ref ?? ref;
    loaded = fetched.plugin;
  }
  const manifest = loaded?.manifestPath ? await readJson(join(loaded.root, loaded.manifestPath)) : null;
  const name = loaded?.name ?? entry.name;
  const config = launchConfigOf(name, manifest, entry.json);
  const source = { source: reference?.source ?? '', ref, repo_path: reference?.repo_path ?? null };
  const defaults = parameterDefaults(config);
  // A plugin that loads nothing (its directory gone, nothing Bosun loads in it) gets no launch link.
  const link =
    reference && loaded && holdsSomething(loaded)
      ? buildLaunchLink([{ ...source, ...(defaults ? { parameters: defaults } : {}) }], {
          message: config.entry_command,
          baseUrl: options.baseUrl,
        })
      : null;
  return {
    plugin: {
      id: entry.name,
      name,
      description: entry.description ?? loaded?.description ?? null,
      version: entry.version ?? loaded?.version ?? null,
      tags: tagsOf(entry.json, manifest),
      featured: options.featured.includes(entry.name),
      source,
      launch_url: link?.url ?? null,
      loading: false,
      problems: [...problems.map(formatProblem), ...(link?.problems ?? []).map((p) => `launch link: ${p.msg}`)],
    },
    config,
  };
}

function holdsSomething(plugin: LoadedPlugin): boolean {
  const { skills, commands, agents, hooks, mcpServers } = plugin;
  return skills.length + commands.length + agents.length > 0 || hooks !== null || Object.keys(mcpServers).length > 0;
}

/** A JSON object file (null: unreadable, not JSON, or not an object; its problems are the loader's to say). */
async function readJson(file: string): Promise<Record<string, unknown> | null> {
  try {
    const json: unknown = JSON.parse(await readFile(file, 'utf8'));
    return json && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The entry's `tags`, `keywords` and `category`, then the manifest's `keywords`: each once, as written. */
function tagsOf(entry: Record<string, unknown>, manifest: Record<string, unknown> | null): string[] {
  const words = (value: unknown): string[] =>
    typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((v) => typeof v === 'string') : [];
  return [
    ...new Set([
      ...words(entry.tags),
      ...words(entry.keywords),
      ...words(entry.category),
      ...words(manifest?.keywords),
    ]),
  ];
}
