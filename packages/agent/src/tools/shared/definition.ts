import type { ToolDefinition, ToolDefinitionKind } from '@bosun/protocol';

export interface ToolHints {
  readOnly: boolean;
  destructive: boolean;
  idempotent: boolean;
}

/**
 * How a built-in tool is listed in the `SystemPromptEvent`: its class `kind`, the function name as `title`,
 * the LLM-facing description and MCP-style annotations. None of the built-in tools talks to the outside world.
 */
export function toolDefinition(
  kind: Exclude<ToolDefinitionKind, 'MCPToolDefinition'>,
  name: string,
  description: string,
  actionType: string,
  observationType: string,
  hints: ToolHints,
): ToolDefinition {
  return {
    kind,
    title: name,
    description,
    action_type: actionType,
    observation_type: observationType,
    annotations: {
      title: name,
      readOnlyHint: hints.readOnly,
      destructiveHint: hints.destructive,
      idempotentHint: hints.idempotent,
      openWorldHint: false,
    },
  } as ToolDefinition;
}
