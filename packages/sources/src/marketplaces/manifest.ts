import { posix } from 'node:path';
import type { PluginProblem } from '@bosun/protocol';
import { repoPathProblem } from '../plugins/fetch.ts';
import { error, warning } from '../plugins/problems.ts';

/** Where an entry's plugin is: inside the marketplace's own repository, or in a Git repository of its own. */
export type EntrySource =
  | { type: 'relative'; path: string }
  | { type: 'git'; source: string; ref: string | null; path: string | null };

/** A plugin entry of a `marketplace.json`. */
export interface ParsedEntry {
  name: string;
  description: string | null;
  version: string | null;
  /** The entry as written (it stands in for `plugin.json` fields; see `LoadPluginOptions.entry`). */
  json: Record<string, unknown>;
  /** null: the entry cannot be loaded (its problems say why). */
  source: EntrySource | null;
  problems: PluginProblem[];
}

export interface ParsedMarketplace {
  name: string | null;
  owner: string | null;
  description: string | null;
  entries: ParsedEntry[];
  problems: PluginProblem[];
}

const FULL_SHA = /^[0-9a-f]{40}$/i;
const OWNER_REPO = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;
const GIT_URL = /^(https?|ssh|git|file):\/\/|^[A-Za-z0-9_.-]+@[A-Za-z0-9.-]+:/;
/** Claude Code source types that are not Git repositories: listed with a problem, never loaded. */
const NOT_GIT = new Set(['npm', 'archive', 'command']);

/**
 * Reads a `marketplace.json` (Claude Code's schema, the superset of Codex's and OpenHands'): its plugin entries
 * with every Git-based source type (relative path, `github`, `url`, `git-subdir`, with `ref`/`sha` pins), each
 * with its problems. `path` (of the file) names problems.
 */
export function parseMarketplace(json: unknown, path: string): ParsedMarketplace {
  if (!isObject(json)) {
    return {
      name: null,
      owner: null,
      description: null,
      entries: [],
      problems: [error(path, 'must be a JSON object')],
    };
  }
  const problems: PluginProblem[] = [];
  const name = typeof json.name === 'string' ? json.name : null;
  if (!name) problems.push(warning(path, "has no 'name'"));
  const owner = isObject(json.owner) && typeof json.owner.name === 'string' ? json.owner.name : null;
  const description =
    typeof json.description === 'string'
      ? json.description
      : isObject(json.metadata) && typeof json.metadata.description === 'string'
        ? json.metadata.description
        : null;
  const pluginRoot =
    isObject(json.metadata) && typeof json.metadata.pluginRoot === 'string' ? json.metadata.pluginRoot : null;
  if (!Array.isArray(json.plugins)) {
    problems.push(error(path, "'plugins' must be a list"));
    return { name, owner, description, entries: [], problems };
  }
  const entries: ParsedEntry[] = [];
  const seen = new Set<string>();
  json.plugins.forEach((item: unknown, index: number) => {
    const where = `${path}: plugins[${index}]`;
    if (!isObject(item) || typeof item.name !== 'string' || !item.name) {
      problems.push(error(where, "an entry needs a 'name'; skipped"));
      return;
    }
    const entry = parseEntry(item, item.name, where, pluginRoot);
    if (seen.has(item.name)) entry.problems.push(error(where, `another entry is named '${item.name}'; skipped`));
    seen.add(item.name);
    entries.push(entry);
  });
  return { name, owner, description, entries, problems };
}

function parseEntry(
  item: Record<string, unknown>,
  name: string,
  where: string,
  pluginRoot: string | null,
): ParsedEntry {
  const problems: PluginProblem[] = [];
  const source = entrySource(item.source, where, pluginRoot, problems);
  return {
    name,
    description: typeof item.description === 'string' ? item.description : null,
    version: typeof item.version === 'string' ? item.version : null,
    json: item,
    source: problems.some((p) => p.severity === 'error') ? null : source,
    problems,
  };
}

function entrySource(
  source: unknown,
  where: string,
  pluginRoot: string | null,
  problems: PluginProblem[],
): EntrySource | null {
  if (typeof source === 'string') return stringSource(source, where, pluginRoot, problems);
  if (!isObject(source) || typeof source.source !== 'string') {
    problems.push(error(where, "'source' must be a path or an object with a 'source' type"));
    return null;
  }
  const type = source.source;
  if (NOT_GIT.has(type)) {
    problems.push(error(where, `source type '${type}' is not a Git repository; Bosun loads only Git-based plugins`));
    return null;
  }
  if (type !== 'github' && type !== 'url' && type !== 'git-subdir') {
    problems.push(error(where, `unknown source type '${type}' (known: github, url, git-subdir, or a path)`));
    return null;
  }
  const text = (key: string) => (typeof source[key] === 'string' && source[key] ? (source[key] as string) : null);
  const sha = text('sha');
  if (sha && !FULL_SHA.test(sha)) problems.push(error(where, `'sha' must be a full 40-character commit SHA`));
  const ref = sha ?? text('ref');
  const path = text('path');
  const pathProblem = repoPathProblem(path);
  if (pathProblem) problems.push(error(where, `'path': ${pathProblem}`));
  let repository: string | null = null;
  if (type === 'github') {
    const repo = text('repo');
    if (repo && OWNER_REPO.test(repo)) repository = `github:${repo}`;
    else problems.push(error(where, "a 'github' source needs 'repo': '<owner>/<repo>'"));
  } else {
    const url = text('url');
    if (url && GIT_URL.test(url)) repository = url;
    else if (url && type === 'git-subdir' && OWNER_REPO.test(url)) repository = `github:${url}`;
    else
      problems.push(
        error(where, `a '${type}' source needs 'url': a Git URL${type === 'git-subdir' ? ' or <owner>/<repo>' : ''}`),
      );
    if (type === 'git-subdir' && !path) problems.push(error(where, "a 'git-subdir' source needs 'path'"));
  }
  if (!repository) return null;
  return { type: 'git', source: repository, ref, path: path ? normalized(path) : null };
}

function stringSource(
  source: string,
  where: string,
  pluginRoot: string | null,
  problems: PluginProblem[],
): EntrySource | null {
  if (GIT_URL.test(source) || /^(github|gitlab|bitbucket):/.test(source)) {
    return { type: 'git', source, ref: null, path: null };
  }
  const own = repoPathProblem(source);
  if (own) {
    problems.push(error(where, `source ${own.replace('repository root', 'marketplace root')}`));
    return null;
  }
  const bare = !source.startsWith('./') && source !== '.';
  const relative = bare && pluginRoot ? posix.join(pluginRoot, source) : source;
  if (bare && !pluginRoot) {
    problems.push(warning(where, `relative source '${source}' should start with './'`));
  }
  const problem = repoPathProblem(relative);
  if (problem) {
    problems.push(error(where, `source ${problem.replace('repository root', 'marketplace root')}`));
    return null;
  }
  return { type: 'relative', path: normalized(relative) };
}

function normalized(path: string): string {
  return posix.normalize(path).replace(/^\.\/|\/+$/g, '') || '.';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}
