import { join, posix } from 'node:path';
import type { HookConfig, PluginHookSummary, PluginProblem } from '@bosun/protocol';
import {
  type PluginAgent,
  type PluginCommand,
  type PluginSkill,
  findAgents,
  findCommands,
  findSkills,
} from './components.ts';
import { readPluginHooks } from './hooks.ts';
import {
  COMPONENT_KEYS,
  type PluginManifest,
  parseManifest,
  readPluginManifest,
  unsupportedWarning,
} from './manifest.ts';
import { type McpServerConfigs, readPluginMcpServers } from './mcp.ts';
import { type PluginReading, kindOf } from './paths.ts';
import { error } from './problems.ts';

/** A plugin read from its directory: its parts, ready to merge into a conversation, and its problems. */
export interface LoadedPlugin {
  name: string;
  version: string | null;
  description: string | null;
  /** Absolute directory of the plugin (`${CLAUDE_PLUGIN_ROOT}`). */
  root: string;
  /** The `plugin.json` read, relative to `root`; null: none. */
  manifestPath: string | null;
  skills: PluginSkill[];
  commands: PluginCommand[];
  agents: PluginAgent[];
  /** Hooks with Claude Code event names and `${CLAUDE_PLUGIN_ROOT}` substituted; null: none. */
  hooks: HookConfig | null;
  mcpServers: McpServerConfigs;
  /** Components it holds that Bosun does not load (`lspServers`, ...), each also a warning. */
  unsupported: string[];
  problems: PluginProblem[];
}

export interface LoadPluginOptions {
  /** The name when neither `plugin.json` nor the marketplace entry gives one (e.g. the directory's). */
  defaultName: string;
  /**
   * The marketplace entry that lists the plugin. `strict` (default true): `plugin.json` wins and the entry fills
   * what it leaves out; false: the entry is the whole definition (a `plugin.json` declaring components is an error).
   * An entry whose `source` is the marketplace's root (`"./"`) that lists `skills` holds those skills only.
   */
  entry?: { json: Record<string, unknown>; path: string };
}

/** Reads the plugin in `root` (Claude Code's layout; `.claude-plugin/`, `.codex-plugin/` or `.plugin/` manifest). */
export async function loadPlugin(root: string, options: LoadPluginOptions): Promise<LoadedPlugin> {
  const empty: LoadedPlugin = {
    name: options.defaultName,
    version: null,
    description: null,
    root,
    manifestPath: null,
    skills: [],
    commands: [],
    agents: [],
    hooks: null,
    mcpServers: {},
    unsupported: [],
    problems: [],
  };
  if ((await kindOf(root)) !== 'directory') {
    return { ...empty, problems: [error(null, 'the plugin directory does not exist')] };
  }
  const reading = await readPluginManifest(root);
  const problems = [...reading.problems];
  const manifest = withEntry(reading.manifest, reading.path, options.entry, problems);
  const manifestPath = reading.path ?? options.entry?.path ?? null;
  const name = manifest.name ?? options.defaultName;
  const skillsOnly = options.entry !== undefined && atMarketplaceRoot(options.entry.json);
  // One after the other: problems come in a stable order (and these are a few small files).
  const context: PluginReading = { root, manifestPath, problems };
  const skills = await findSkills(context, name, manifest.skills, skillsOnly);
  const commands = await findCommands(context, name, manifest.commands, manifest.entryCommand);
  const agents = await findAgents(context, manifest.agents);
  const hooks = await readPluginHooks(context, manifest.hooks);
  const mcpServers = await readPluginMcpServers(context, manifest.mcpServers);
  const unsupported = [...manifest.unsupported];
  if (!unsupported.includes('lspServers') && (await kindOf(join(root, '.lsp.json'))) === 'file') {
    unsupported.push('lspServers');
    problems.push(unsupportedWarning('.lsp.json', 'lspServers'));
  }
  const plugin: LoadedPlugin = {
    name,
    version: manifest.version,
    description: manifest.description,
    root,
    manifestPath: reading.path,
    skills,
    commands,
    agents,
    hooks,
    mcpServers,
    unsupported,
    problems,
  };
  // A plugin holding only what Bosun does not load (an LSP server) is no failure: each part is already a warning.
  if (isEmpty(plugin) && !unsupported.length) {
    problems.push(error(null, 'the plugin has no skills, commands, agents, hooks or MCP servers: nothing to load'));
  }
  return plugin;
}

/** Whether a marketplace entry's `source` is the marketplace's own directory (`"./"`, `"."`). */
function atMarketplaceRoot(entry: Record<string, unknown>): boolean {
  return typeof entry.source === 'string' && posix.normalize(entry.source).replace(/\/+$/, '') === '.';
}

function withEntry(
  manifest: PluginManifest,
  manifestPath: string | null,
  entry: LoadPluginOptions['entry'],
  problems: PluginProblem[],
): PluginManifest {
  if (!entry) return manifest;
  const parsed = parseManifest(entry.json, entry.path, { requireName: false });
  // Its other warnings are about marketplace keys; the components it declares that Bosun does not load are said.
  problems.push(...parsed.problems.filter((p) => p.severity === 'error'));
  const newlyUnsupported = parsed.manifest.unsupported.filter((key) => !manifest.unsupported.includes(key));
  problems.push(...newlyUnsupported.map((key) => unsupportedWarning(entry.path, key)));
  if (entry.json.strict === false) {
    const declared = COMPONENT_KEYS.filter((key) => manifest[key] !== null);
    if (declared.length) {
      problems.push(
        error(manifestPath, `declares ${declared.join(', ')} but the marketplace entry is strict: false; ignored`),
      );
    }
    return { ...parsed.manifest, name: parsed.manifest.name ?? manifest.name };
  }
  const merged = { ...manifest, unsupported: [...manifest.unsupported, ...newlyUnsupported] };
  for (const key of Object.keys(merged) as (keyof PluginManifest)[]) {
    if (merged[key] === null) (merged as Record<string, unknown>)[key] = parsed.manifest[key];
  }
  return merged;
}

function isEmpty(plugin: LoadedPlugin): boolean {
  return (
    !plugin.skills.length &&
    !plugin.commands.length &&
    !plugin.agents.length &&
    !plugin.hooks &&
    !Object.keys(plugin.mcpServers).length
  );
}

const ROOT_EXPORT = /^export CLAUDE_PLUGIN_ROOT='(?:[^']|'\\'')*'; /;

/** The command hooks of a plugin, one line each (for listings; without the `CLAUDE_PLUGIN_ROOT` export). */
export function hookSummaries(hooks: HookConfig | null): PluginHookSummary[] {
  if (!hooks) return [];
  return Object.entries(hooks).flatMap(([event, groups]) =>
    ((groups ?? []) as { matcher?: string; hooks: { command: string; if?: string | null }[] }[]).flatMap((group) =>
      group.hooks.map((hook) => ({
        event,
        matcher: group.matcher ?? '*',
        if: hook.if ?? null,
        command: hook.command.replace(ROOT_EXPORT, ''),
      })),
    ),
  );
}
