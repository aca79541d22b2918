import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PluginProblem } from '@bosun/protocol';
import type { ComponentSpec } from './manifest.ts';
import { insidePlugin, kindOf, relativeTo } from './paths.ts';
import { error } from './problems.ts';

/** MCP server configurations by name, as `.mcp.json` gives them (`${CLAUDE_PLUGIN_ROOT}` substituted). */
export type McpServerConfigs = Record<string, Record<string, unknown>>;

/**
 * The MCP servers of a plugin: `.mcp.json` (`{"mcpServers": {...}}` or the map itself) and the manifest's
 * `mcpServers` (files or inline), later ones overriding earlier ones by name. A server needs a `command` (stdio)
 * or a `url` (HTTP); one without is left out with an error.
 */
export async function readPluginMcpServers(
  root: string,
  specs: ComponentSpec[] | null,
  manifestPath: string | null,
  problems: PluginProblem[],
): Promise<McpServerConfigs> {
  const servers: McpServerConfigs = {};
  const read = new Set<string>();
  const fromFile = async (file: string, explicit: boolean) => {
    if (read.has(file)) return;
    read.add(file);
    const path = relativeTo(root, file);
    if ((await kindOf(file)) !== 'file') {
      if (explicit) problems.push(error(manifestPath, `MCP file '${path}' does not exist`));
      return;
    }
    try {
      addServers(servers, JSON.parse(await readFile(file, 'utf8')), root, path, problems);
    } catch (e) {
      problems.push(error(path, `not valid JSON: ${(e as Error).message}; its MCP servers are not loaded`));
    }
  };
  await fromFile(join(root, '.mcp.json'), false);
  for (const spec of specs ?? []) {
    if (typeof spec !== 'string') addServers(servers, spec, root, manifestPath, problems);
    else {
      const file = await insidePlugin(root, spec, manifestPath, problems);
      if (file) await fromFile(file, true);
    }
  }
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
    servers[name] = substitute(server, root) as Record<string, unknown>;
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
