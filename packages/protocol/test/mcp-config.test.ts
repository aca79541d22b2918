import { AgentSpec, MCPConfig, MCPServer, parse, safeParse } from '@bosun/protocol';
import { describe, expect, it } from 'vitest';
import { problems } from './fixtures/conformance.ts';

const parseConfig = (value: unknown) => parse(MCPConfig, value);
const parseServer = (value: unknown) => parse(MCPServer, value);

describe('MCPServer', () => {
  it('takes a stdio server (OpenHands and Claude Code fields) and fills in enabled', () => {
    const server = {
      command: 'node',
      args: ['server.mjs', '--flag'],
      env: { TOKEN: 'x' },
      cwd: 'tools',
      transport: 'stdio',
      timeout: 5,
      startup_timeout: 30,
      description: 'A server',
    };
    expect(parseServer(structuredClone(server))).toEqual({ ...server, enabled: true });
    expect(parseServer({ type: 'stdio', command: 'uvx', args: ['mcp-server-fetch'] })).toMatchObject({ type: 'stdio' });
  });

  it('takes an HTTP server with headers and each auth strategy (api_key gets its default header)', () => {
    const http = { url: 'https://mcp.example.com/mcp', transport: 'streamable-http', headers: { 'X-Token': 't' } };
    expect(parseServer(structuredClone(http))).toEqual({ ...http, enabled: true });
    for (const auth of [
      { strategy: 'none' },
      { strategy: 'bearer', value: 't' },
      { strategy: 'basic', username: 'u', password: 'p' },
      { strategy: 'header', headers: { A: 'b' } },
    ]) {
      expect(parseServer({ url: 'http://127.0.0.1:1/mcp', auth: structuredClone(auth) }).auth).toEqual(auth);
    }
    expect(parseServer({ url: 'http://h/mcp', auth: { strategy: 'api_key', value: 'k' } }).auth).toEqual({
      strategy: 'api_key',
      value: 'k',
      header_name: 'X-API-Key',
    });
  });

  it('rejects unknown fields, unknown transports, non-HTTP URLs, empty commands and OAuth, naming the key', () => {
    expect(problems(parseServer, { command: 'x', oauth: { clientId: 'c' } })).toEqual([
      { loc: ['oauth'], type: 'extra_forbidden' },
    ]);
    expect(problems(parseServer, { command: 'x', transport: 'websocket' })).toEqual([
      { loc: ['transport'], type: 'enum' },
    ]);
    expect(problems(parseServer, { url: 'file:///etc/passwd' })).toEqual([
      { loc: ['url'], type: 'string_pattern_mismatch' },
    ]);
    expect(problems(parseServer, { command: '' })).toEqual([{ loc: ['command'], type: 'string_too_short' }]);
    expect(problems(parseServer, { command: 'x', env: { A: 1 } })).toEqual([
      { loc: ['env', 'A'], type: 'string_type' },
    ]);
    expect(problems(parseServer, { url: 'http://h', auth: { strategy: 'oauth2' } }).map((p) => p.loc)).toContainEqual([
      'auth',
      'strategy',
    ]);
    expect(problems(parseServer, { command: 'x', timeout: 0 })).toEqual([{ loc: ['timeout'], type: 'greater_than' }]);
  });
});

describe('MCPConfig', () => {
  it('takes the flat map, the mcpServers wrapper, and both together', () => {
    expect(parseConfig({ fs: { command: 'a' } })).toEqual({ fs: { command: 'a', enabled: true } });
    expect(parseConfig({ mcpServers: { fs: { command: 'a' } } })).toEqual({
      mcpServers: { fs: { command: 'a', enabled: true } },
    });
    expect(parseConfig({ mcpServers: { a: { command: 'a' } }, b: { url: 'http://h/mcp' } })).toMatchObject({
      mcpServers: { a: { command: 'a' } },
      b: { url: 'http://h/mcp' },
    });
  });

  it('reports a bad server under its name', () => {
    expect(problems(parseConfig, { fs: { command: 'a', bogus: true } })).toEqual([
      { loc: ['fs', 'bogus'], type: 'extra_forbidden' },
    ]);
    expect(problems(parseConfig, { mcpServers: { fs: { args: 'not-a-list' } } })).toEqual([
      { loc: ['mcpServers', 'fs', 'args'], type: 'list_type' },
    ]);
    expect(problems(parseConfig, { fs: 'node server.js' })).toEqual([{ loc: ['fs'], type: 'dict_type' }]);
  });

  it('is the type of agent.mcp_config (default: no servers)', () => {
    const agent = parse(AgentSpec, { llm: { model: 'm' } });
    expect(agent.mcp_config).toEqual({});
    const bad = safeParse(AgentSpec, { llm: { model: 'm' }, mcp_config: { fs: { command: 1 } } });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.errors.map((e) => e.loc)).toEqual([['mcp_config', 'fs', 'command']]);
  });
});
