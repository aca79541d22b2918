import {
  type Agent,
  type McpLogRecord,
  type McpProblem,
  type McpServers,
  connectMcpServers,
  filterTools,
  secretMasker,
} from '@bosun/agent';
import type { MCPConfig, MCPServers, NewEvent } from '@bosun/protocol';

/** The `code` of the ConversationErrorEvent that says an MCP server is not available. */
export const MCP_SERVER_ERROR = 'MCPServerError';

export interface ConversationMcpOptions {
  workspace: string;
  /** The names of the agent's other tools (MCP tools that collide are renamed `<server>_<tool>`). */
  reservedNames: string[];
  /** The conversation's secret values by name: `${NAME}` in the configuration, and masked in messages. */
  secrets: Record<string, string>;
  filterRegex: string | null | undefined;
  log?: (record: McpLogRecord) => void;
  /** A failed server is tried again at a run's start only this long after its last attempt (default 30 s). */
  retryAfterMs?: number;
  /** Caps each server's start (and its tool listing): what is left of the conversation's setup deadline. */
  maxStartupMs?: number;
}

/**
 * The MCP servers of one loaded conversation, started with its agent and stopped with it. A server that fails
 * never stops the conversation: its tools are missing, the LLM is told in the system prompt (when it failed at
 * creation), the user sees a ConversationErrorEvent (`MCPServerError`, once per failure, not sent to the LLM),
 * the server log has a warning, and it is tried again at the start of later runs.
 */
export class ConversationMcp {
  /** Servers whose current failure is already in the log as an event. */
  private readonly reported = new Set<string>();

  private constructor(
    private readonly servers: McpServers,
    private readonly filterRegex: string | null | undefined,
  ) {}

  static async start(
    config: MCPConfig | MCPServers | null | undefined,
    options: ConversationMcpOptions,
  ): Promise<ConversationMcp> {
    const servers = await connectMcpServers(config, {
      workspace: options.workspace,
      reservedNames: options.reservedNames,
      variables: options.secrets,
      mask: secretMasker(Object.values(options.secrets)),
      ...(options.log ? { log: options.log } : {}),
      ...(options.retryAfterMs !== undefined ? { retryAfterMs: options.retryAfterMs } : {}),
      ...(options.maxStartupMs !== undefined ? { maxStartupMs: options.maxStartupMs } : {}),
    });
    return new ConversationMcp(servers, options.filterRegex);
  }

  /** The tools of the servers that started (after `filter_tools_regex`). */
  get tools() {
    return filterTools(this.servers.tools, this.filterRegex);
  }

  /** Lines for the system prompt about the servers that are not available. */
  contextNotes(): string[] {
    return this.servers.problems.map(
      (problem) =>
        `The MCP server '${problem.server}' failed to start, so its tools are not available: ${problem.message}`,
    );
  }

  /** Tries the failed servers again; the tools of those that start now are given to `agent`. */
  async retry(agent: Pick<Agent, 'addTools'>): Promise<void> {
    if (this.servers.problems.length === 0) return;
    const { tools } = await this.servers.retryFailed();
    agent.addTools(filterTools(tools, this.filterRegex));
  }

  /** ConversationErrorEvents for failures not reported yet (a server that recovers and fails again is reported again). */
  unreportedProblems(): NewEvent[] {
    const problems = this.servers.problems;
    const failing = new Set(problems.map((problem) => problem.server));
    for (const server of this.reported) if (!failing.has(server)) this.reported.delete(server);
    const fresh = problems.filter((problem) => !this.reported.has(problem.server));
    for (const problem of fresh) this.reported.add(problem.server);
    return fresh.map(problemEvent);
  }

  close(): Promise<void> {
    return this.servers.close();
  }
}

function problemEvent(problem: McpProblem): NewEvent {
  return {
    kind: 'ConversationErrorEvent',
    source: 'environment',
    code: MCP_SERVER_ERROR,
    detail: `MCP server '${problem.server}' is not available (its tools are missing): ${problem.message}`,
  };
}
