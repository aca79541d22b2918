import { describe, expect, it } from 'vitest';
import {
  McpConfigError,
  expandVariables,
  flattenMcpConfig,
  mcpConfigProblems,
  normalizeMcpConfig,
  parseMcpJson,
} from '../../src/mcp/config.ts';

const workspace = '/work/space';

describe('normalizeMcpConfig', () => {
  it('reads the flat map and the mcpServers wrapper (wrapped first), skipping disabled servers', () => {
    const servers = normalizeMcpConfig(
      {
        flat: { command: 'node', args: ['a.mjs'], enabled: true },
        off: { command: 'node', enabled: false },
        mcpServers: { wrapped: { url: 'http://127.0.0.1:9/mcp', enabled: true } },
      },
      { workspace },
    );
    expect(servers.map((s) => [s.name, s.transport])).toEqual([
      ['wrapped', 'http'],
      ['flat', 'stdio'],
    ]);
  });

  it('infers the transport, maps streamable-http and Claude Code type, defaults cwd and the timeout', () => {
    const [stdio, http, sse, typed] = normalizeMcpConfig(
      {
        stdio: { command: 'node', cwd: 'tools', timeout: 2.5, startup_timeout: 4, enabled: true },
        http: { url: 'https://h/mcp', transport: 'streamable-http', enabled: true },
        sse: { url: 'https://h/sse', transport: 'sse', enabled: true },
        typed: { url: 'https://h/mcp', type: 'http', enabled: true },
      },
      { workspace },
    );
    expect(stdio).toMatchObject({
      transport: 'stdio',
      cwd: '/work/space/tools',
      timeoutMs: 2500,
      startupTimeoutMs: 4000,
      args: [],
      env: {},
    });
    expect(http).toMatchObject({ transport: 'http', timeoutMs: 60_000, startupTimeoutMs: 60_000, headers: {} });
    expect(sse?.transport).toBe('sse');
    expect(typed?.transport).toBe('http');
    expect(normalizeMcpConfig({ s: { command: 'x', enabled: true } }, { workspace })[0]?.cwd).toBe(workspace);
    expect(normalizeMcpConfig({ s: { command: 'x', cwd: '/abs', enabled: true } }, { workspace })[0]?.cwd).toBe('/abs');
  });

  it('expands ${NAME} and ${NAME:-default} in commands, arguments, env, URLs and headers', () => {
    const variables = { TOKEN: 's3cret', ROOT: '/plugins/p' };
    const [stdio, http] = normalizeMcpConfig(
      {
        stdio: {
          command: '${ROOT}/bin/server',
          args: ['--token=${TOKEN}', '${MISSING:-fallback}', '${MISSING}'],
          env: { API_TOKEN: '${TOKEN}' },
          enabled: true,
        },
        http: { url: 'https://h/${MISSING:-mcp}', headers: { Authorization: 'Bearer ${TOKEN}' }, enabled: true },
      },
      { workspace, variables },
    );
    expect(stdio).toMatchObject({
      command: '/plugins/p/bin/server',
      args: ['--token=s3cret', 'fallback', '${MISSING}'],
      env: { API_TOKEN: 's3cret' },
    });
    expect(http).toMatchObject({ url: 'https://h/mcp', headers: { Authorization: 'Bearer s3cret' } });
    expect(expandVariables('$TOKEN ${TOKEN}', variables)).toBe('$TOKEN s3cret');
  });

  it('turns auth into headers', () => {
    const headersOf = (auth: unknown) =>
      normalizeMcpConfig({ s: { url: 'http://h/mcp', auth, enabled: true } } as never, { workspace })[0]?.headers;
    expect(headersOf({ strategy: 'bearer', value: 't' })).toEqual({ Authorization: 'Bearer t' });
    expect(headersOf({ strategy: 'api_key', value: 'k', header_name: 'X-Key' })).toEqual({ 'X-Key': 'k' });
    expect(headersOf({ strategy: 'basic', username: 'u', password: 'p' })).toEqual({
      Authorization: `Basic ${Buffer.from('u:p').toString('base64')}`,
    });
    expect(headersOf({ strategy: 'header', headers: { A: 'b' } })).toEqual({ A: 'b' });
    expect(headersOf({ strategy: 'none' })).toEqual({});
  });

  it('throws McpConfigError with every problem', () => {
    expect(() => normalizeMcpConfig({ s: { enabled: true } } as never, { workspace })).toThrow(McpConfigError);
  });
});

describe('mcpConfigProblems', () => {
  it('names each problem by its key', () => {
    const problems = mcpConfigProblems(
      {
        none: { enabled: true },
        both: { command: 'x', url: 'http://h', enabled: true },
        wrong: { command: 'x', transport: 'sse', enabled: true },
        stdioUrl: { url: 'http://h', transport: 'stdio', enabled: true },
        clash: { command: 'x', transport: 'stdio', type: 'http', enabled: true },
        twice: { command: 'x', enabled: true },
        mcpServers: { twice: { command: 'y', enabled: true } },
      } as never,
      ['body', 'agent', 'mcp_config'],
    );
    expect(problems.map((p) => p.loc.join('.'))).toEqual([
      'body.agent.mcp_config.none',
      'body.agent.mcp_config.both',
      'body.agent.mcp_config.wrong.command',
      'body.agent.mcp_config.stdioUrl.url',
      'body.agent.mcp_config.clash.type',
      'body.agent.mcp_config.twice',
    ]);
    expect(problems.at(-1)?.msg).toBe("MCP server 'twice' is defined twice (flat and in mcpServers)");
    expect(problems.find((p) => p.loc.includes('none'))?.msg).toBe(
      "MCP server 'none' needs `command` (stdio) or `url` (HTTP)",
    );
  });

  it('accepts good configurations', () => {
    expect(
      mcpConfigProblems({ a: { command: 'x', type: 'stdio', transport: 'stdio', enabled: true } } as never),
    ).toEqual([]);
    expect(mcpConfigProblems({ a: { url: 'http://h', type: 'http', transport: 'streamable-http' } } as never)).toEqual(
      [],
    );
    expect(mcpConfigProblems(undefined)).toEqual([]);
  });
});

describe('flattenMcpConfig', () => {
  it('unwraps mcpServers into one map that later configurations can override by name', () => {
    const agent = flattenMcpConfig({ a: { command: 'a' }, mcpServers: { b: { command: 'b' } } } as never);
    expect(agent).toEqual({ b: { command: 'b' }, a: { command: 'a' } });
    expect({ ...agent, ...{ a: { url: 'http://plugin/mcp' } } }).toEqual({
      b: { command: 'b' },
      a: { url: 'http://plugin/mcp' },
    });
    expect(flattenMcpConfig(null)).toEqual({});
  });
});

describe('parseMcpJson', () => {
  it("reads Claude Code's .mcp.json (wrapped) and the flat form, with defaults", () => {
    const file = JSON.stringify({ mcpServers: { fs: { type: 'stdio', command: 'npx', args: ['-y', 'server'] } } });
    expect(parseMcpJson(file)).toEqual({
      servers: { fs: { type: 'stdio', command: 'npx', args: ['-y', 'server'], enabled: true } },
      problems: [],
    });
    expect(parseMcpJson({ web: { url: 'https://h/mcp' } }).servers).toEqual({
      web: { url: 'https://h/mcp', enabled: true },
    });
  });

  it('keeps the good servers and reports the bad ones by path', () => {
    const { servers, problems } = parseMcpJson({
      mcpServers: { good: { command: 'x' }, odd: { command: 'x', oauth: {} }, empty: {} },
    });
    expect(Object.keys(servers)).toEqual(['good']);
    expect(problems.map((p) => [p.loc.join('.'), p.type])).toEqual([
      ['mcpServers.odd.oauth', 'extra_forbidden'],
      ['mcpServers.empty', 'value_error'],
    ]);
  });

  it('reports a file that is not JSON or not an object', () => {
    expect(parseMcpJson('{nope').problems[0]).toMatchObject({ loc: [], type: 'json_invalid' });
    expect(parseMcpJson('[]').problems[0]).toMatchObject({ loc: [], type: 'dict_type' });
    expect(parseMcpJson({ mcpServers: [] }).problems[0]).toMatchObject({ loc: ['mcpServers'], type: 'dict_type' });
  });
});
