import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  GitCache,
  fetchPlugin,
  formatProblem,
  gitAuthFromSecrets,
  gitProvidersFromEnv,
  pluginInspection,
  pluginReferenceProblems,
  repositoryUrl,
} from '@bosun/agent';
import type { PluginInspection } from '@bosun/protocol';
import type { Command } from '../command.ts';

const USAGE = `Usage: bosun plugin inspect SOURCE [--ref REF] [--path PATH] [--json] [--cache DIR]

Fetches a plugin with the system git and prints what it contains (skills, commands,
agents, hooks, MCP servers) and every problem found. SOURCE is <provider>:<owner>/<repo>
(github, gitlab, bitbucket) or a Git URL.

Options:
  --ref REF     branch, tag or full commit SHA (default: the default branch)
  --path PATH   the plugin directory inside the repository (monorepos)
  --json        print the inspection as one JSON object (PluginInspection)
  --cache DIR   where fetched commits are kept (default: BOSUN_GIT_CACHE_DIR, else
                ~/.cache/bosun/git)

Provider base URLs: BOSUN_GIT_GITHUB_URL, BOSUN_GIT_GITLAB_URL, BOSUN_GIT_BITBUCKET_URL.
Private repositories: GITHUB_TOKEN, GITLAB_TOKEN, BITBUCKET_TOKEN (by host) or GIT_TOKEN.
Exit status: 0 without errors (warnings allowed), 1 if the plugin has errors, 2 for bad usage.`;

export interface SourceOptions {
  source: string;
  ref: string | null;
  path: string | null;
  json: boolean;
  cache: string;
}

/** `SOURCE [--ref] [--path] [--json] [--cache]`, shared by `plugin inspect` and `marketplace inspect`. */
export function parseSourceOptions(args: string[], env: NodeJS.ProcessEnv): SourceOptions {
  const { values, positionals } = parseArgs({
    args,
    options: {
      ref: { type: 'string' },
      path: { type: 'string' },
      json: { type: 'boolean', default: false },
      cache: { type: 'string' },
    },
    allowPositionals: true,
  });
  if (positionals.length !== 1) throw new Error(positionals.length ? 'one SOURCE only' : 'no SOURCE given');
  const cacheHome = env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return {
    source: positionals[0] as string,
    ref: values.ref ?? null,
    path: values.path ?? null,
    json: values.json === true,
    cache: values.cache ?? env.BOSUN_GIT_CACHE_DIR ?? join(cacheHome, 'bosun', 'git'),
  };
}

/** The credential the environment holds for `source` (the CLI's "secrets" are its environment). */
export function authFromEnv(source: string, env: NodeJS.ProcessEnv) {
  const providers = gitProvidersFromEnv(env);
  const secrets = Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
  try {
    return gitAuthFromSecrets(repositoryUrl(source, providers), secrets, providers);
  } catch {
    return undefined;
  }
}

export const pluginCommand: Command = {
  name: 'plugin',
  summary: 'Inspect a plugin in a Git repository: what it contains and its problems',
  usage: USAGE,
  async run(args, io) {
    const [sub, ...rest] = args;
    if (sub !== 'inspect') {
      io.stderr.write(`bosun plugin: ${sub ? `unknown subcommand '${sub}'` : 'no subcommand given'}\n\n${USAGE}\n`);
      return 2;
    }
    let options: SourceOptions;
    try {
      options = parseSourceOptions(rest, process.env);
    } catch (error) {
      io.stderr.write(`bosun plugin inspect: ${(error as Error).message}\n\n${USAGE}\n`);
      return 2;
    }
    const reference = { source: options.source, ref: options.ref, repo_path: options.path };
    const providers = gitProvidersFromEnv(process.env);
    const invalid = pluginReferenceProblems(reference, [], providers);
    if (invalid.length) {
      for (const problem of invalid)
        io.stderr.write(`bosun plugin inspect: ${problem.loc.join('.')}: ${problem.msg}\n`);
      return 2;
    }
    const cache = new GitCache({ dir: options.cache, providers });
    const fetched = await fetchPlugin(reference, { cache, auth: authFromEnv(options.source, process.env) });
    const inspection = pluginInspection(fetched);
    io.stdout.write(options.json ? `${JSON.stringify(inspection, null, 2)}\n` : renderInspection(inspection));
    return inspection.problems.some((p) => p.severity === 'error') ? 1 : 0;
  },
};

/** The inspection as text, one section per kind of part. */
export function renderInspection(inspection: PluginInspection): string {
  const lines: string[] = [];
  const title = [inspection.name ?? '(not loaded)', inspection.version].filter(Boolean).join(' ');
  lines.push(`Plugin ${title}${inspection.description ? ` - ${inspection.description}` : ''}`);
  const ref = inspection.original_ref ?? '(default branch)';
  lines.push(
    `  source:   ${inspection.source} @ ${ref}${inspection.resolved_ref ? ` = ${inspection.resolved_ref}` : ''}`,
  );
  if (inspection.repo_path) lines.push(`  path:     ${inspection.repo_path}`);
  lines.push(`  manifest: ${inspection.manifest ?? '(none)'}`);
  const section = (heading: string, rows: string[]) => {
    lines.push('', `${heading} (${rows.length})${rows.length ? ':' : ''}`);
    for (const row of rows) lines.push(`  ${row}`);
  };
  const component = (c: { name: string; description: string | null; path: string }) =>
    `${c.name}${c.description ? `  ${c.description}` : ''}  [${c.path}]`;
  section('Skills', inspection.skills.map(component));
  section('Commands', inspection.commands.map(component));
  section('Agents', inspection.agents.map(component));
  section(
    'Hooks',
    inspection.hooks.map((h) => `${h.event}${h.event.endsWith('ToolUse') ? ` [${h.matcher}]` : ''}: ${h.command}`),
  );
  section('MCP servers', inspection.mcp_servers);
  section('Problems', inspection.problems.map(formatProblem));
  return `${lines.join('\n')}\n`;
}
