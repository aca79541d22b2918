import { posix } from 'node:path';
import type { PluginInspection, PluginProblem, ResolvedPlugin, ValidationError } from '@bosun/protocol';
import { type GitAuth, type GitCache, type GitProviders, redactCredentials, repositoryUrl } from '../git/index.ts';
import { checkoutRepository } from './checkout.ts';
import { type LoadedPlugin, hookSummaries, loadPlugin } from './plugin.ts';
import { error } from './problems.ts';

/** A plugin reference: the `plugins` items of a start request, or a marketplace entry resolved to one. */
export interface PluginReference {
  source: string;
  ref?: string | null;
  repo_path?: string | null;
}

export interface FetchPluginOptions {
  cache: GitCache;
  auth?: GitAuth | undefined;
  /** The commit to load instead of resolving `ref` again (the one recorded when the conversation began). */
  pinned?: string | null;
  /** The registered marketplace that selected the plugin. */
  marketplace?: string | null;
  /** The marketplace entry listing it (see `LoadPluginOptions.entry`). */
  entry?: { json: Record<string, unknown>; path: string };
}

/** A fetched plugin: what to record (always) and what was loaded (null when the fetch failed). */
export interface FetchedPlugin {
  resolved: ResolvedPlugin;
  plugin: LoadedPlugin | null;
}

/**
 * Fetches a plugin's repository at its ref (or `pinned` commit) into the cache and reads the plugin at
 * `repo_path`. Never throws for a bad source, a failed fetch or a bad plugin: each is a problem of the result.
 */
export async function fetchPlugin(reference: PluginReference, options: FetchPluginOptions): Promise<FetchedPlugin> {
  const resolved: ResolvedPlugin = {
    source: redactCredentials(reference.source),
    original_ref: reference.ref ?? null,
    resolved_ref: null,
    repo_path: reference.repo_path ?? null,
    marketplace: options.marketplace ?? null,
    name: null,
    problems: [],
  };
  // A plugin that cannot be fetched keeps a name (its marketplace entry's, else its directory's or repository's):
  // its record and its problems must say which plugin they are about.
  const entryName = typeof options.entry?.json.name === 'string' ? options.entry.json.name : null;
  const fail = (message: string): FetchedPlugin => ({
    resolved: { ...resolved, name: entryName ?? defaultPluginName(reference), problems: [error(null, message)] },
    plugin: null,
  });
  const ref = options.pinned ?? reference.ref ?? null;
  const checkout = await checkoutRepository(options.cache, reference, ref, options.auth, resolved.source);
  resolved.resolved_ref = checkout.sha;
  if ('problem' in checkout) return fail(checkout.problem);
  const plugin = await loadPlugin(checkout.dir, {
    defaultName: defaultPluginName(reference),
    ...(options.entry ? { entry: options.entry } : {}),
  });
  return { resolved: { ...resolved, name: plugin.name, problems: plugin.problems }, plugin };
}

/** The name of a plugin that does not name itself: its directory's, else its repository's. */
export function defaultPluginName(reference: PluginReference): string {
  const path = reference.repo_path?.replace(/\/+$/, '');
  if (path && path !== '.') return posix.basename(path);
  const last = redactCredentials(reference.source).replace(/\/+$/, '').split(/[/:]/).pop() ?? 'plugin';
  return last.replace(/\.git$/, '') || 'plugin';
}

/**
 * What is wrong with a plugin reference before anything is fetched (a 422 at conversation creation): a source
 * that is not a repository, a `repo_path` that is absolute or climbs out with `..`.
 */
export function pluginReferenceProblems(
  reference: PluginReference,
  loc: (string | number)[],
  providers?: GitProviders,
): ValidationError[] {
  const problems: ValidationError[] = [];
  try {
    repositoryUrl(reference.source, providers);
  } catch (e) {
    problems.push({ loc: [...loc, 'source'], msg: redactCredentials((e as Error).message), type: 'value_error' });
  }
  const problem = repoPathProblem(reference.repo_path);
  if (problem) problems.push({ loc: [...loc, 'repo_path'], msg: problem, type: 'value_error' });
  return problems;
}

/** Why `repo_path` cannot name a directory inside the repository, or null. */
export function repoPathProblem(repoPath: string | null | undefined): string | null {
  if (repoPath === null || repoPath === undefined) return null;
  if (repoPath.startsWith('/') || repoPath.startsWith('\\') || /^[A-Za-z]:/.test(repoPath)) {
    return `'${repoPath}' must be a path relative to the repository root`;
  }
  if (repoPath.split(/[/\\]/).includes('..')) return `'${repoPath}' must not contain '..'`;
  return null;
}

/** The inspection of a fetched plugin (`bosun plugin inspect`). */
export function pluginInspection(fetched: FetchedPlugin, extra: PluginProblem[] = []): PluginInspection {
  const { resolved, plugin } = fetched;
  const { source, original_ref, resolved_ref, repo_path } = resolved;
  return {
    source,
    original_ref,
    resolved_ref,
    repo_path,
    name: plugin?.name ?? null,
    version: plugin?.version ?? null,
    description: plugin?.description ?? null,
    manifest: plugin?.manifestPath ?? null,
    skills: (plugin?.skills ?? []).map((s) => ({ name: s.name, description: s.description, path: s.path })),
    commands: (plugin?.commands ?? []).map((c) => ({ name: `/${c.name}`, description: c.description, path: c.path })),
    agents: (plugin?.agents ?? []).map((a) => ({ name: a.name, description: a.description, path: a.path })),
    hooks: hookSummaries(plugin?.hooks ?? null),
    mcp_servers: Object.keys(plugin?.mcpServers ?? {}),
    problems: [...resolved.problems, ...extra],
  };
}
