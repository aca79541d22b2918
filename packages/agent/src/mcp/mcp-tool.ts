import type { ActionOf, ObservationOf, ToolDefinition } from '@bosun/protocol';
import type { Tool, ToolContext } from '../tools/tool.ts';
import type { McpConnection, McpToolInfo } from './connection.ts';
import { argumentCheck, llmSchema } from './input-schema.ts';
import { resultContent } from './result.ts';

type MCPToolAction = ActionOf<'MCPToolAction'>;
type MCPToolObservation = ObservationOf<'MCPToolObservation'>;

/** The ToolDefinition of an MCP tool, as the `SystemPromptEvent` lists it. */
function definitionOf(name: string, info: McpToolInfo, server: string): ToolDefinition {
  const hints = info.annotations ?? {};
  return {
    kind: 'MCPToolDefinition',
    title: name,
    description: info.description ?? info.title ?? name,
    action_type: 'MCPToolAction',
    observation_type: 'MCPToolObservation',
    // MCP's hints may be null; null means the spec's default.
    annotations: {
      title: hints.title ?? info.title ?? name,
      readOnlyHint: hints.readOnlyHint ?? false,
      destructiveHint: hints.destructiveHint ?? true,
      idempotentHint: hints.idempotentHint ?? false,
      openWorldHint: hints.openWorldHint ?? true,
    },
    meta: { mcp_server: server },
    mcp_tool: structuredClone(info) as { name: string; inputSchema: Record<string, unknown> },
  };
}

/**
 * A tool of an MCP server as one of the agent's tools, called `name` by the LLM (the MCP tool's name unless it
 * collides, see `servers.ts`). Its arguments are the tool's `inputSchema` (checked before the call; a bad call
 * is an AgentErrorEvent, as for any tool), its actions `MCPToolAction {data}`, its results `MCPToolObservation`.
 * A server that timed out, crashed or cannot be restarted gives an observation with `is_error: true`.
 * Read-only only when the server says so (`readOnlyHint`).
 */
export function createMcpTool(
  name: string,
  info: McpToolInfo,
  connection: McpConnection,
): Tool<MCPToolAction, MCPToolObservation> {
  const inputSchema = info.inputSchema as Record<string, unknown>;
  const check = argumentCheck(inputSchema);
  return {
    name,
    actionKind: 'MCPToolAction',
    definition: definitionOf(name, info, connection.name),
    parameters: llmSchema(inputSchema),
    readOnly: info.annotations?.readOnlyHint === true,
    actionFrom(args) {
      const problems = check(args);
      if (problems.length === 0) return { ok: true, action: { kind: 'MCPToolAction', data: args } };
      return {
        ok: false,
        error: `Error validating tool '${name}': ${problems.join('; ')}. Parameters provided: ${JSON.stringify(Object.keys(args))}`,
      };
    },
    async execute(action, context: ToolContext) {
      const observation = (content: MCPToolObservation['content'], isError: boolean): MCPToolObservation => ({
        kind: 'MCPToolObservation',
        tool_name: info.name,
        content,
        is_error: isError,
      });
      try {
        const result = await connection.call(info.name, action.data, context.signal);
        return observation(resultContent(result, context.mask), result.isError === true);
      } catch (error) {
        const reason = context.signal.aborted
          ? 'the call was cancelled (the run was paused or stopped)'
          : (error as Error).message;
        const text = context.mask(`MCP tool '${info.name}' of server '${connection.name}' failed: ${reason}`);
        return observation([{ type: 'text', text, cache_prompt: false }], true);
      }
    },
  };
}
