import { TOOL_NAMES } from '@bosun/agent';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';

const ToolNames = Type.Array(Type.String(), {
  description: 'Registry names, as `agent.tools[].name` takes them (for example `terminal`, `file_editor`).',
});

/**
 * `GET /api/tools/` (trailing slash, as OpenHands): the names of the tools an agent can be given, read from the
 * agent's tool registry. MCP tools are not listed: they come from each conversation's `agent.mcp_config`.
 */
export function toolRoutes(app: FastifyInstance): void {
  const list = async () => [...TOOL_NAMES];
  app.get(
    '/api/tools/',
    { schema: { tags: ['Tools'], summary: 'List the available tools', response: { 200: ToolNames } } },
    list,
  );
  // FastAPI redirects the path without the slash; answering it directly spares clients a round trip.
  app.get('/api/tools', { schema: { hide: true } }, list);
}
