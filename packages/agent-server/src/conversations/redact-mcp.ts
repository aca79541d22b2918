import type { MCPConfig, MCPServer, MCPServerAuth, MCPServers } from '@bosun/protocol';

const redactValues = (map: Record<string, string>, mask: string) =>
  Object.fromEntries(Object.keys(map).map((key) => [key, mask]));

function redactedAuth(auth: MCPServerAuth, mask: string): MCPServerAuth {
  switch (auth.strategy) {
    case 'bearer':
    case 'api_key':
      return { ...auth, value: mask };
    case 'basic':
      return { ...auth, password: mask };
    case 'header':
      return { ...auth, headers: redactValues(auth.headers, mask) };
    default:
      return auth;
  }
}

function redactedServer(server: MCPServer, mask: string): MCPServer {
  return {
    ...server,
    ...(server.env ? { env: redactValues(server.env, mask) } : {}),
    ...(server.headers ? { headers: redactValues(server.headers, mask) } : {}),
    ...(server.auth ? { auth: redactedAuth(server.auth, mask) } : {}),
  };
}

const redactedServers = (servers: MCPServers, mask: string): MCPServers =>
  Object.fromEntries(Object.entries(servers).map(([name, server]) => [name, redactedServer(server, mask)]));

/** `agent.mcp_config` with every secret (`env` and `headers` values, auth tokens and passwords) as `mask`. */
export function redactedMcpConfig(config: MCPConfig, mask: string): MCPConfig {
  const { mcpServers, ...flat } = config;
  return {
    ...redactedServers(flat as MCPServers, mask),
    ...(mcpServers ? { mcpServers: redactedServers(mcpServers, mask) } : {}),
  };
}
