import { Type } from '@sinclair/typebox';
import { namedSchema, openObject, ref, withDefault } from '../schema/builders.ts';
import { action, observation, singleTool, toolDefinition } from './shapes.ts';

/** MCP tools, and tools with arbitrary data of their own (`invoke_skill`): the spec's unions are closed. */

export const MCPToolAction = action('MCPToolAction', 'A call of an MCP tool.', {
  data: withDefault(openObject({ description: "The MCP tool's arguments (validated by the tool)." }), {}),
});

export const MCPToolObservation = observation('MCPToolObservation', 'The result of an MCP tool call.', {
  tool_name: Type.String({ description: 'The MCP tool that was called.' }),
});

export const MCPTool = namedSchema<{ name: string; inputSchema: Record<string, unknown>; [key: string]: unknown }>({
  $id: 'MCPTool',
  type: 'object',
  description: 'The tool as its MCP server describes it.',
  properties: {
    name: { type: 'string' },
    description: { type: ['string', 'null'] },
    inputSchema: { type: 'object', additionalProperties: true },
  },
  required: ['name', 'inputSchema'],
  additionalProperties: true,
});

export const MCPToolDefinition = toolDefinition('MCPToolDefinition', 'A tool served by an MCP server.', {
  mcp_tool: ref(MCPTool),
});

export const mcpShapes = singleTool(MCPToolAction, MCPToolObservation, MCPToolDefinition, [MCPTool]);
