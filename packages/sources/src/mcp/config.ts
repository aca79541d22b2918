import { isAbsolute, resolve } from 'node:path';
import { type MCPConfig, type MCPServer, type MCPServers, type ValidationError, safeParse } from '@bosun/protocol';
import { MCPConfig as MCPConfigSchema } from '@bosun/protocol';

/** Seconds each tool call may take when `timeout` is not given. */
export const DEFAULT_MCP_TIMEOUT_SECONDS = 60;
/** Seconds a server may take to start and list its tools when `startup_timeout` is not given. */
export const DEFAULT_MCP_STARTUP_TIMEOUT_SECONDS = 60;

export type McpTransportKind = 'stdio' | 'http' | 'sse';

/** One server, normalized: how to reach it, with variables expanded and defaults applied. */
export interface McpServerSettings {
  name: string;
  transport: McpTransportKind;
  /** stdio */
  command?: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  /** HTTP */
  url?: string;
  headers: Record<string, string>;
  /** Each tool call. */
  timeoutMs: number;
  /** Starting the server (spawn or HTTP session, `initialize`) and listing its tools. */
  startupTimeoutMs: number;
}

export class McpConfigError extends Error {
  constructor(readonly problems: ValidationError[]) {
    super(`invalid mcp_config: ${problems.map((p) => `${p.loc.join('.')}: ${p.msg}`).join('; ')}`);
    this.name = 'McpConfigError';
  }
}

type Loc = (string | number)[];

/** The servers of a configuration with where each one is: the `mcpServers` wrapper's first, then the flat ones. */
function entries(config: MCPConfig | MCPServers, loc: Loc): { name: string; loc: Loc; server: MCPServer }[] {
  const out: { name: string; loc: Loc; server: MCPServer }[] = [];
  const { mcpServers, ...flat } = config as MCPConfig;
  for (const [name, server] of Object.entries(mcpServers ?? {})) {
    out.push({ name, loc: [...loc, 'mcpServers', name], server });
  }
  for (const [name, server] of Object.entries(flat))
    out.push({ name, loc: [...loc, name], server: server as MCPServer });
  return out;
}

function transportOf(server: MCPServer): McpTransportKind {
  const given = server.transport ?? server.type;
  if (given === 'sse' || given === 'stdio') return given;
  if (given === 'http' || given === 'streamable-http') return 'http';
  return server.command !== undefined ? 'stdio' : 'http';
}

/**
 * What is wrong with an MCP configuration that its schema cannot say: a server with neither or both of
 * `command` and `url`, a transport that contradicts them, `transport` and `type` that disagree, a name given
 * both flat and in `mcpServers`. `loc` prefixes each problem's location.
 */
export function mcpConfigProblems(
  config: MCPConfig | MCPServers | null | undefined,
  loc: Loc = ['mcp_config'],
): ValidationError[] {
  if (!config) return [];
  const problems: ValidationError[] = [];
  const seen = new Set<string>();
  for (const { name, loc: at, server } of entries(config, loc)) {
    const problem = (msg: string, field?: string) =>
      problems.push({ loc: field ? [...at, field] : at, msg, type: 'value_error' });
    if (seen.has(name)) problem(`MCP server '${name}' is defined twice (flat and in mcpServers)`);
    seen.add(name);
    const hasCommand = server.command !== undefined;
    const hasUrl = server.url !== undefined;
    if (!hasCommand && !hasUrl) problem(`MCP server '${name}' needs \`command\` (stdio) or \`url\` (HTTP)`);
    if (hasCommand && hasUrl) problem(`MCP server '${name}' has both \`command\` and \`url\`; give one`);
    const { transport, type } = server;
    if (
      transport &&
      type &&
      transportOf({ transport } as MCPServer) !== transportOf({ transport: type } as MCPServer)
    ) {
      problem(`\`transport\` '${transport}' and \`type\` '${type}' disagree`, 'type');
    }
    const kind = transportOf(server);
    if (hasCommand === hasUrl) continue;
    if (hasCommand && kind !== 'stdio')
      problem(`transport '${transport ?? type}' needs \`url\`, not \`command\``, 'command');
    if (hasUrl && kind === 'stdio') problem('transport `stdio` needs `command`, not `url`', 'url');
  }
  return problems;
}

/**
 * The servers of a configuration as one flat map (the `mcpServers` wrapper unwrapped; a flat entry wins over a
 * wrapped one of the same name). For merging configurations, e.g. a plugin's `.mcp.json` servers into the
 * agent's: `{...flattenMcpConfig(agent.mcp_config), ...pluginServers}` (later keys win, as OpenHands merges).
 */
export function flattenMcpConfig(config: MCPConfig | MCPServers | null | undefined): MCPServers {
  if (!config) return {};
  return Object.fromEntries(entries(config, []).map(({ name, server }) => [name, server]));
}

/** `${NAME}` and `${NAME:-default}` replaced from `variables` (Claude Code's `.mcp.json` syntax); others kept. */
export function expandVariables(text: string, variables: Readonly<Record<string, string>>): string {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (whole, name: string, fallback?: string) => {
    const value = variables[name];
    if (value !== undefined && value !== '') return value;
    return fallback ?? whole;
  });
}

function authHeaders(auth: MCPServer['auth']): Record<string, string> {
  switch (auth?.strategy) {
    case 'bearer':
      return { Authorization: `Bearer ${auth.value}` };
    case 'api_key':
      return { [auth.header_name]: auth.value };
    case 'basic':
      return { Authorization: `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}` };
    case 'header':
      return { ...auth.headers };
    default:
      return {};
  }
}

export interface NormalizeOptions {
  /** Relative `cwd`s are resolved against it; it is also the default `cwd` of stdio servers. */
  workspace: string;
  /** Values for `${NAME}` in commands, arguments, environments, URLs and headers. */
  variables?: Readonly<Record<string, string>>;
}

/**
 * The enabled servers of a configuration (`{name: server}`, `{"mcpServers": {...}}` or both), in order: the
 * wrapped ones first, then the flat ones. Throws `McpConfigError` when `mcpConfigProblems` finds any.
 */
export function normalizeMcpConfig(
  config: MCPConfig | MCPServers | null | undefined,
  options: NormalizeOptions,
): McpServerSettings[] {
  const problems = mcpConfigProblems(config);
  if (problems.length) throw new McpConfigError(problems);
  if (!config) return [];
  const variables = options.variables ?? {};
  const expand = (text: string) => expandVariables(text, variables);
  const expandAll = (map: Record<string, string> | undefined) =>
    Object.fromEntries(Object.entries(map ?? {}).map(([key, value]) => [key, expand(value)]));
  return entries(config, []).flatMap(({ name, server }): McpServerSettings[] => {
    if (server.enabled === false) return [];
    const transport = transportOf(server);
    const timeoutMs = (server.timeout ?? DEFAULT_MCP_TIMEOUT_SECONDS) * 1000;
    const startupTimeoutMs = (server.startup_timeout ?? DEFAULT_MCP_STARTUP_TIMEOUT_SECONDS) * 1000;
    if (transport === 'stdio') {
      const cwd = server.cwd ? expand(server.cwd) : undefined;
      return [
        {
          name,
          transport,
          command: expand(server.command as string),
          args: (server.args ?? []).map(expand),
          env: expandAll(server.env),
          cwd: cwd && isAbsolute(cwd) ? cwd : resolve(options.workspace, cwd ?? '.'),
          headers: {},
          timeoutMs,
          startupTimeoutMs,
        },
      ];
    }
    return [
      {
        name,
        transport,
        url: expand(server.url as string),
        args: [],
        env: {},
        headers: { ...expandAll(server.headers), ...expandAll(authHeaders(server.auth)) },
        timeoutMs,
        startupTimeoutMs,
      },
    ];
  });
}

/**
 * A `.mcp.json` file (Claude Code plugins and projects): `{"mcpServers": {...}}`, or the flat map. Returns its
 * servers by name (unwrapped) and its problems (`loc` starts at the file's root); servers with problems are
 * left out, the others are kept.
 */
export function parseMcpJson(content: string | unknown): { servers: MCPServers; problems: ValidationError[] } {
  let value: unknown = content;
  if (typeof content === 'string') {
    try {
      value = JSON.parse(content);
    } catch (error) {
      return {
        servers: {},
        problems: [{ loc: [], msg: `Not JSON: ${(error as Error).message}`, type: 'json_invalid' }],
      };
    }
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    return { servers: {}, problems: [{ loc: [], msg: 'Expected a JSON object', type: 'dict_type' }] };
  }
  const wrapped = (value as { mcpServers?: unknown }).mcpServers;
  if (wrapped !== undefined && (!wrapped || typeof wrapped !== 'object' || Array.isArray(wrapped))) {
    return { servers: {}, problems: [{ loc: ['mcpServers'], msg: 'Expected a JSON object', type: 'dict_type' }] };
  }
  const problems: ValidationError[] = [];
  const servers: MCPServers = {};
  for (const { name, loc, server } of entries(structuredClone(value) as MCPConfig, [])) {
    const parsed = safeParse(MCPConfigSchema, { [name]: server });
    const found = parsed.ok ? mcpConfigProblems(parsed.value, []) : parsed.errors;
    if (found.length) {
      problems.push(...found.map((problem) => ({ ...problem, loc: [...loc.slice(0, -1), ...problem.loc] })));
      continue;
    }
    if (name in servers) {
      problems.push({ loc, msg: `MCP server '${name}' is defined twice`, type: 'value_error' });
      continue;
    }
    servers[name] = (parsed as { value: MCPServers }).value[name] as MCPServer;
  }
  return { servers, problems };
}
