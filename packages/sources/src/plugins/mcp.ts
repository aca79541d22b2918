import { type MCPConfig, MCPServer, type MCPServers, type PluginProblem, safeParse } from '@bosun/protocol';
import { mcpConfigProblems } from '../mcp/config.ts';
import { readComponentJson } from './component-json.ts';
import type { ComponentSpec } from './manifest.ts';
import type { PluginReading } from './paths.ts';
import { error } from './problems.ts';

/** MCP server configurations by name, as `.mcp.json` gives them (`${CLAUDE_PLUGIN_ROOT}` substituted). */
export type McpServerConfigs = MCPServers;

/**
 * The MCP servers of a plugin: `.mcp.json` (`{"mcpServers": {...}}` or the map itself) and the manifest's
 * `mcpServers` (files or inline), later ones overriding earlier ones by name. A server must be a valid
 * `MCPServer` (a `command` for stdio or a `url` for HTTP, ...); one that is not is left out with an error.
 */
export async function readPluginMcpServers(
  plugin: PluginReading,
  specs: ComponentSpec[] | null,
): Promise<McpServerConfigs> {
  const servers: McpServerConfigs = {};
  await readComponentJson(plugin, '.mcp.json', specs, { file: 'MCP', content: 'MCP servers' }, (json, path) =>
    addServers(servers, json, plugin.root, path, plugin.problems),
  );
  return servers;
}

function addServers(
  servers: McpServerConfigs,
  json: unknown,
  root: string,
  path: string | null,
  problems: PluginProblem[],
): void {
  if (!isObject(json)) {
    problems.push(error(path, 'MCP servers must be a JSON object; not loaded'));
    return;
  }
  const map = isObject(json.mcpServers) ? json.mcpServers : json;
  for (const [name, server] of Object.entries(map)) {
    if (!isObject(server) || (typeof server.command !== 'string' && typeof server.url !== 'string')) {
      problems.push(error(path, `MCP server '${name}' needs a 'command' or a 'url'; not loaded`));
      continue;
    }
    const candidate = substitute(server, root);
    const parsed = safeParse(MCPServer, candidate);
    const invalid = parsed.ok ? mcpConfigProblems({ [name]: parsed.value }, []) : parsed.errors;
    if (invalid.length) {
      const details = invalid.map((p) => `${p.loc.join('.') || name}: ${p.msg}`).join('; ');
      problems.push(error(path, `MCP server '${name}' is not valid (${details}); not loaded`));
      continue;
    }
    servers[name] = candidate as MCPServer;
  }
}

/** Every string in `value` with `${CLAUDE_PLUGIN_ROOT}` replaced by the plugin's directory. */
function substitute(value: unknown, root: string): unknown {
  if (typeof value === 'string') return value.replaceAll('${CLAUDE_PLUGIN_ROOT}', root);
  if (Array.isArray(value)) return value.map((item) => substitute(item, root));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, root)]));
  return value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The MCP servers of a conversation: its own `mcp_config` (flat or in `mcpServers`), then each plugin's in load
 * order, a later definition of a name replacing an earlier one (OpenHands' merge).
 */
export function mergeMcpServers(
  config: MCPConfig | MCPServers | null | undefined,
  pluginServers: readonly McpServerConfigs[],
): MCPServers | null {
  if (!pluginServers.some((servers) => Object.keys(servers).length)) return (config as MCPServers | null) ?? null;
  const { mcpServers, ...flat } = (config ?? {}) as MCPConfig;
  const merged: MCPServers = { ...(mcpServers ?? {}), ...(flat as MCPServers) };
  for (const servers of pluginServers) Object.assign(merged, servers);
  return merged;
}
