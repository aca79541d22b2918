import type { MCPConfig, MCPServers } from '@bosun/protocol';
import { type McpServerSettings, normalizeMcpConfig } from '@bosun/sources';
import { secretMasker } from '../shared/secret-masker.ts';
import type { Tool } from '../tools/tool.ts';
import { McpConnection, type McpToolInfo } from './connection.ts';
import { createMcpTool } from './mcp-tool.ts';

/** A server that could not be started (its tools are missing), and why. */
export interface McpProblem {
  server: string;
  message: string;
}

/** What the host logs about a server: started (with its tools) or failed (with why). */
export interface McpLogRecord {
  server: string;
  transport: McpServerSettings['transport'];
  outcome: 'started' | 'failed';
  /** The LLM names of its tools (started). */
  tools?: string[];
  /** Why it failed, secrets masked. */
  error?: string;
  durationMs: number;
}

export interface ConnectMcpOptions {
  /** The default working directory of stdio servers (and the base of relative `cwd`s). */
  workspace: string;
  /** Names MCP tools may not take: the agent's other tools (`terminal`, `finish`, ...). */
  reservedNames?: Iterable<string>;
  /** Values for `${NAME}` in the configuration (for example the conversation's secrets). */
  variables?: Readonly<Record<string, string>>;
  /** Masks secrets in error messages (the servers' own `env` and `headers` values are always masked). */
  mask?: (text: string) => string;
  log?: (record: McpLogRecord) => void;
  /** `retryFailed` tries a failed server again only this long after its last attempt; default 30 s. */
  retryAfterMs?: number;
  /**
   * Caps each server's `startup_timeout` (its start and its tool listing each get at most this long): the
   * caller's own deadline. A server past it is a failure like any other, tried again later.
   */
  maxStartupMs?: number;
}

/** The MCP servers of an agent: their tools, the servers that failed, and how to stop them all. */
export interface McpServers {
  /** Every tool of the servers that started, in configuration order. */
  readonly tools: Tool[];
  /** The servers that are not running (their tools are missing). */
  readonly problems: McpProblem[];
  /**
   * Tries the failed servers again (those whose last attempt is older than `retryAfterMs`); returns the tools
   * of those that started now, and the problems of those still failing.
   */
  retryFailed(): Promise<{ tools: Tool[]; problems: McpProblem[] }>;
  close(): Promise<void>;
}

const NAME_LIMIT = 64;
const RETRY_AFTER_MS = 30_000;

/** A function name every LLM API accepts: letters, digits, `_` and `-`, at most 64 characters. */
function functionName(raw: string): string {
  return raw.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, NAME_LIMIT) || 'tool';
}

/**
 * The name the LLM calls a server's tool by: the MCP tool's own name (OpenHands does the same); when that is
 * taken (by a built-in tool or a server earlier in the configuration), `<server>_<tool>`, then `_2`, `_3`, ...
 */
export function mcpToolName(server: string, tool: string, taken: ReadonlySet<string>): string {
  const own = functionName(tool);
  if (!taken.has(own)) return own;
  const qualified = functionName(`${server}_${tool}`);
  if (!taken.has(qualified)) return qualified;
  for (let n = 2; ; n++) {
    const numbered = `${qualified.slice(0, NAME_LIMIT - String(n).length - 1)}_${n}`;
    if (!taken.has(numbered)) return numbered;
  }
}

interface ServerState {
  connection: McpConnection;
  failure?: string;
  attemptedAt: number;
  /** How long the last attempt took. */
  durationMs: number;
}

/**
 * Starts the MCP servers of a configuration (OpenHands' flat map, `{"mcpServers": ...}`, or the servers of a
 * plugin's `.mcp.json` from `parseMcpJson`), all at once, each within its timeout, and wraps their tools as the
 * agent's tools. A server that fails is reported in `problems` and logged; it never fails the whole. Throws
 * `McpConfigError` only for a configuration `mcpConfigProblems` rejects.
 */
export async function connectMcpServers(
  config: MCPConfig | MCPServers | null | undefined,
  options: ConnectMcpOptions,
): Promise<McpServers> {
  const cap = options.maxStartupMs;
  const settings = normalizeMcpConfig(config, {
    workspace: options.workspace,
    ...(options.variables ? { variables: options.variables } : {}),
  }).map((server) =>
    cap === undefined ? server : { ...server, startupTimeoutMs: Math.max(1, Math.min(server.startupTimeoutMs, cap)) },
  );
  const taken = new Set(options.reservedNames ?? []);
  const states: ServerState[] = settings.map((server) => ({
    connection: new McpConnection(server),
    attemptedAt: 0,
    durationMs: 0,
  }));
  const tools: Tool[] = [];
  const retryAfterMs = options.retryAfterMs ?? RETRY_AFTER_MS;

  /** Starts the servers of `batch` in parallel; names their tools in configuration order. */
  async function start(batch: ServerState[]): Promise<Tool[]> {
    const listed = await Promise.all(batch.map((state) => attempt(state)));
    const added: Tool[] = [];
    batch.forEach((state, index) => {
      if (state.failure) {
        log(state, 'failed', { error: state.failure });
        return;
      }
      const names: string[] = [];
      for (const info of listed[index] ?? []) {
        const name = mcpToolName(state.connection.name, info.name, taken);
        taken.add(name);
        names.push(name);
        added.push(createMcpTool(name, info, state.connection));
      }
      log(state, 'started', { tools: names });
    });
    tools.push(...added);
    return added;
  }

  async function attempt(state: ServerState): Promise<McpToolInfo[] | undefined> {
    state.attemptedAt = Date.now();
    try {
      const listed = await state.connection.start();
      state.failure = undefined;
      return listed;
    } catch (error) {
      state.failure = maskFor(state.connection.settings)((error as Error).message);
      return undefined;
    } finally {
      state.durationMs = Date.now() - state.attemptedAt;
    }
  }

  function maskFor(server: McpServerSettings): (text: string) => string {
    const own = secretMasker([...Object.values(server.env), ...Object.values(server.headers)]);
    return (text) => own(options.mask ? options.mask(text) : text);
  }

  function log(state: ServerState, outcome: McpLogRecord['outcome'], extra: Partial<McpLogRecord>): void {
    const { name, transport } = state.connection.settings;
    options.log?.({ server: name, transport, outcome, ...extra, durationMs: state.durationMs });
  }

  const problems = (): McpProblem[] =>
    states.flatMap((state) => (state.failure ? [{ server: state.connection.name, message: state.failure }] : []));

  await start(states);
  return {
    tools,
    get problems() {
      return problems();
    },
    async retryFailed() {
      const due = states.filter((state) => state.failure && Date.now() - state.attemptedAt >= retryAfterMs);
      const added = due.length ? await start(due) : [];
      return { tools: added, problems: problems() };
    },
    async close() {
      await Promise.all(states.map((state) => state.connection.close()));
    },
  };
}
