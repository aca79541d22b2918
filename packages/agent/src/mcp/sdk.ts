/**
 * The MCP SDK, loaded on first use: importing it takes a few hundred milliseconds, which the agent server's
 * start-up should not pay when most conversations have no MCP server.
 */
const load = async () => {
  const [client, sse, stdio, http] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/sse.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
  ]);
  return {
    Client: client.Client,
    SSEClientTransport: sse.SSEClientTransport,
    SseError: sse.SseError,
    StdioClientTransport: stdio.StdioClientTransport,
    StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
    StreamableHTTPError: http.StreamableHTTPError,
  };
};

export type McpSdk = Awaited<ReturnType<typeof load>>;

let loaded: Promise<McpSdk> | undefined;

export function mcpSdk(): Promise<McpSdk> {
  loaded ??= load();
  return loaded;
}
