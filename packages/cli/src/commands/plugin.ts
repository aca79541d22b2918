import type { PluginInspection } from '@bosun/protocol';
import { fetchPlugin, formatProblem, pluginInspection } from '@bosun/sources';
import type { Command } from '../command.ts';
import { inspectTarget } from './git-source.ts';

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

export const pluginCommand: Command = {
  name: 'plugin',
  summary: 'Inspect a plugin in a Git repository: what it contains and its problems',
  usage: USAGE,
  async run(args, io) {
    const target = inspectTarget('plugin', args, io, USAGE);
    if (typeof target === 'number') return target;
    const { options } = target;
    const fetched = await fetchPlugin(target.reference, { cache: target.cache, auth: target.auth });
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
    inspection.hooks.map(
      (h) =>
        `${h.event}${h.event.endsWith('ToolUse') ? ` [${h.matcher}]` : ''}${h.if ? ` if ${h.if}` : ''}: ${h.command}`,
    ),
  );
  section('MCP servers', inspection.mcp_servers);
  section('Problems', inspection.problems.map(formatProblem));
  return `${lines.join('\n')}\n`;
}
