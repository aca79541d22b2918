import { type Static, type TProperties, Type } from '@sinclair/typebox';
import {
  namedSchema,
  nullable,
  ref,
  strictObject,
  stringEnum,
  tag,
  taggedUnion,
  withDefault,
} from '../schema/builders.ts';

/**
 * MCP servers of an agent (`agent.mcp_config`): OpenHands' flat map `{name: server}`, or the same map wrapped in
 * `{"mcpServers": {...}}` as in Claude Code's `.mcp.json` files (both are accepted, and may be mixed). Each
 * server is started as a child process (`command`, stdio) or reached over HTTP (`url`).
 */

export const MCP_TRANSPORTS = ['stdio', 'http', 'streamable-http', 'sse'] as const;

const secretMap = (description: string) =>
  Type.Unsafe<Record<string, string>>({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: `${description} Values are secrets: redacted as \`**********\` in every response.`,
  });

const secret = (description: string) => Type.String({ description: `${description} Secret: redacted in responses.` });

/** A way to authenticate to an HTTP server: a strict object selected by its `strategy`. */
function authStrategy<S extends string, P extends TProperties>(
  $id: string,
  strategy: S,
  description: string,
  fields: P,
) {
  return strictObject($id, description, { strategy: tag(strategy), ...fields });
}

export const MCPAuthNone = authStrategy('MCPAuthNone', 'none', 'No auth.', {});
export const MCPAuthBearer = authStrategy('MCPAuthBearer', 'bearer', 'A bearer token.', {
  value: secret('The token, sent as `Authorization: Bearer <value>`.'),
});
export const MCPAuthApiKey = authStrategy('MCPAuthApiKey', 'api_key', 'An API key in a header.', {
  value: secret('The key.'),
  header_name: withDefault(Type.String({ minLength: 1, description: 'The header that carries the key.' }), 'X-API-Key'),
});
export const MCPAuthBasic = authStrategy('MCPAuthBasic', 'basic', 'HTTP basic auth.', {
  username: Type.String(),
  password: secret('The password.'),
});
export const MCPAuthHeader = authStrategy('MCPAuthHeader', 'header', 'Arbitrary headers.', {
  headers: secretMap('Headers sent with every request.'),
});

export const MCPServerAuth = taggedUnion(
  'MCPServerAuth',
  'How an HTTP server is authenticated (turned into request headers). OAuth is not supported.',
  'strategy',
  [MCPAuthNone, MCPAuthBearer, MCPAuthApiKey, MCPAuthBasic, MCPAuthHeader],
);
export type MCPServerAuth = Static<typeof MCPServerAuth>;

const transport = (description: string) => Type.Optional(nullable(stringEnum(MCP_TRANSPORTS), { description }));

export const MCPServer = strictObject('MCPServer', 'An MCP server: `command` (stdio) or `url` (HTTP), not both.', {
  command: Type.Optional(
    Type.String({ minLength: 1, description: 'stdio: the program to start (looked up in PATH).' }),
  ),
  args: Type.Optional(Type.Array(Type.String(), { description: 'stdio: its arguments.' })),
  env: Type.Optional(
    secretMap(
      'stdio: environment variables, on top of a minimal inherited environment (HOME, PATH, SHELL, TERM, USER, LOGNAME).',
    ),
  ),
  cwd: Type.Optional(
    nullable(
      Type.String({ description: 'stdio: working directory, relative to the workspace (default: the workspace).' }),
    ),
  ),
  url: Type.Optional(
    Type.String({
      pattern: '^https?://',
      description: 'HTTP: the endpoint (streamable HTTP, or SSE with `transport: sse`).',
    }),
  ),
  headers: Type.Optional(secretMap('HTTP: headers sent with every request.')),
  auth: Type.Optional(nullable(ref(MCPServerAuth))),
  transport: transport('`stdio` (default with `command`), `http`/`streamable-http` (default with `url`) or `sse`.'),
  type: transport("Claude Code's name for `transport`."),
  timeout: Type.Optional(
    nullable(
      Type.Number({
        exclusiveMinimum: 0,
        maximum: 3600,
        description: 'Seconds allowed for each tool call; default 60.',
      }),
    ),
  ),
  startup_timeout: Type.Optional(
    nullable(
      Type.Number({
        exclusiveMinimum: 0,
        maximum: 3600,
        description: 'Bosun: seconds allowed for starting the server and listing its tools; default 60.',
      }),
    ),
  ),
  sse_read_timeout: Type.Optional(nullable(Type.Number({ minimum: 0, description: 'Accepted; not used.' }))),
  keep_alive: Type.Optional(nullable(Type.Boolean({ description: 'Accepted; not used.' }))),
  description: Type.Optional(nullable(Type.String())),
  icon: Type.Optional(nullable(Type.String())),
  enabled: withDefault(Type.Boolean({ description: 'False: the server is not started.' }), true),
});
export type MCPServer = Static<typeof MCPServer>;

/** Servers by name. */
export type MCPServers = Record<string, MCPServer>;

export const MCPConfig = namedSchema<{ mcpServers?: MCPServers; [name: string]: MCPServer | MCPServers | undefined }>({
  $id: 'MCPConfig',
  type: 'object',
  properties: {
    mcpServers: {
      type: 'object',
      additionalProperties: { $ref: 'MCPServer' },
      description: "Servers by name, as in Claude Code's `.mcp.json` (merged with the flat entries).",
    },
  },
  additionalProperties: { $ref: 'MCPServer' },
  propertyNames: { minLength: 1, maxLength: 128 },
  description: 'MCP servers by name (`{"name": {...}}`), or wrapped in `{"mcpServers": {...}}`.',
});
export type MCPConfig = Static<typeof MCPConfig>;

/** The fields of a server that hold secrets (their values are redacted in responses). */
export const MCP_SECRET_MAPS = ['env', 'headers'] as const;
