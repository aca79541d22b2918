import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type GitCache,
  MANIFEST_DIRS,
  type ParsedEntry,
  type ReadMarketplace,
  formatProblem,
  marketplacePlugin,
  pathInside,
  readMarketplace,
} from '@bosun/agent';
import type { DirectoryMarketplace, DirectoryPlugin, DirectoryPluginConfig } from '@bosun/protocol';
import { buildLaunchLink } from '@bosun/protocol';
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
  cache: GitCache;
  featured: readonly string[];
  /** Where the web UI is, for launch links. */
  baseUrl: string;
}

/** Reads the marketplace at `location` and each plugin it lists (their `plugin.json`), every failure a problem. */
export async function readCatalog(location: DirectoryLocation, options: CatalogOptions): Promise<Catalog> {
  const read = await readMarketplace(location, options.cache);
  const marketplace: DirectoryMarketplace = {
    name: read.parsed.name,
    description: read.parsed.description,
    source: location.source,
    ref: location.ref,
    repo_path: location.repo_path,
    commit: read.location?.resolved_ref ?? null,
    fetched_at: new Date().toISOString(),
    problems: read.parsed.problems.map(formatProblem),
  };
  const plugins = await Promise.all(read.parsed.entries.map((entry) => catalogPlugin(entry, read, options)));
  return { marketplace, plugins };
}

async function catalogPlugin(
  entry: ParsedEntry,
  read: ReadMarketplace,
  options: CatalogOptions,
): Promise<CatalogPlugin> {
  const problems = entry.problems.map(formatProblem);
  const resolved = marketplacePlugin(entry, read);
  problems.push(...resolved.problems.map(formatProblem));
  const reference = resolved.plugin?.reference ?? null;
  let manifest: Record<string, unknown> | null = null;
  let ref = reference?.ref ?? null;
  if (reference) {
    try {
      const checkout = await options.cache.checkout(reference.source, reference.ref ?? null);
      ref = checkout.sha;
      const dir = await pathInside(checkout.dir, reference.repo_path);
      if (
        !(await stat(dir).then(
          (found) => found.isDirectory(),
          () => false,
        ))
      ) {
        throw new Error(`'${reference.repo_path ?? '.'}' is not a directory of ${reference.source}`);
      }
      manifest = await readManifest(dir);
    } catch (error) {
      problems.push(`its plugin cannot be read: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const name = typeof manifest?.name === 'string' ? manifest.name : entry.name;
  const config = launchConfigOf(name, manifest, entry.json);
  const source = { source: reference?.source ?? '', ref, repo_path: reference?.repo_path ?? null };
  const defaults = parameterDefaults(config);
  const link = reference
    ? buildLaunchLink([{ ...source, ...(defaults ? { parameters: defaults } : {}) }], {
        message: config.entry_command,
        baseUrl: options.baseUrl,
      })
    : null;
  const text = (key: string) => (typeof manifest?.[key] === 'string' ? (manifest[key] as string) : null);
  return {
    plugin: {
      id: entry.name,
      name,
      description: entry.description ?? text('description'),
      version: entry.version ?? text('version'),
      tags: tagsOf(entry.json, manifest),
      featured: options.featured.includes(entry.name),
      source,
      launch_url: link?.url ?? null,
      problems: [...problems, ...(link?.problems ?? []).map((p) => `launch link: ${p.msg}`)],
    },
    config,
  };
}

/** The first `plugin.json` of the plugin directory, as JSON (null: none, or not an object). */
async function readManifest(dir: string): Promise<Record<string, unknown> | null> {
  for (const manifestDir of MANIFEST_DIRS) {
    const text = await readFile(join(dir, manifestDir, 'plugin.json'), 'utf8').catch(() => null);
    if (text === null) continue;
    const json: unknown = JSON.parse(text);
    return json && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : null;
  }
  return null;
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
