import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './support/http.ts';
import { type TestServer, startRequest, startTestServer } from './support/server.ts';

type Detail = { loc: (string | number)[]; msg: string; type: string };

let idle: TestServer;
let agent: TestServer;
beforeAll(async () => {
  idle = await startTestServer();
  // The agent's runner: it checks what the schema cannot (and would start the servers).
  agent = await startTestServer({ runner: undefined });
});
afterAll(async () => {
  await Promise.all([idle.close(), agent.close()]);
});

const withMcp = (mcp_config: unknown, extra: Record<string, unknown> = {}) => {
  const request = startRequest() as { agent: Record<string, unknown> };
  return { ...request, agent: { ...request.agent, mcp_config, ...extra } };
};

describe('agent.mcp_config', () => {
  it('is a 422 naming the key when a server is invalid (schema)', async () => {
    const reply = await call<{ detail: Detail[] }>(agent.url, '/api/conversations', {
      method: 'POST',
      json: withMcp({ fs: { command: 'node', argz: [] }, mcpServers: { web: { url: 'ftp://x' } } }),
    });
    expect(reply.status).toBe(422);
    expect(reply.body.detail.map((d) => [d.loc.join('.'), d.type])).toEqual(
      expect.arrayContaining([
        ['body.agent.mcp_config.fs.argz', 'extra_forbidden'],
        ['body.agent.mcp_config.mcpServers.web.url', 'string_pattern_mismatch'],
      ]),
    );
  });

  it('is a 422 naming the key when a server has neither command nor url, or contradicts its transport', async () => {
    const reply = await call<{ detail: Detail[] }>(agent.url, '/api/conversations', {
      method: 'POST',
      json: withMcp({ empty: {}, mixed: { command: 'node', transport: 'sse' } }),
    });
    expect(reply.status).toBe(422);
    expect(reply.body.detail).toEqual([
      {
        loc: ['body', 'agent', 'mcp_config', 'empty'],
        msg: "MCP server 'empty' needs `command` (stdio) or `url` (HTTP)",
        type: 'value_error',
      },
      expect.objectContaining({ loc: ['body', 'agent', 'mcp_config', 'mixed', 'command'] }),
    ]);
  });

  it('is a 422 for a filter_tools_regex that is not a regular expression', async () => {
    const reply = await call<{ detail: Detail[] }>(agent.url, '/api/conversations', {
      method: 'POST',
      json: withMcp({}, { filter_tools_regex: '(unclosed' }),
    });
    expect(reply.status).toBe(422);
    expect(reply.body.detail[0]?.loc).toEqual(['body', 'agent', 'filter_tools_regex']);
  });

  it('keeps the configuration as sent, with env, headers and auth secrets redacted in every response', async () => {
    const config = {
      local: { command: 'node', args: ['server.mjs'], env: { API_TOKEN: 'env-secret-1' } },
      mcpServers: {
        remote: {
          url: 'https://mcp.example.com/mcp',
          headers: { Authorization: 'Bearer header-secret-2' },
          auth: { strategy: 'basic', username: 'me', password: 'password-secret-3' },
        },
      },
    };
    const created = await call<{ id: string; agent: { mcp_config: unknown } }>(idle.url, '/api/conversations', {
      method: 'POST',
      json: withMcp(config),
    });
    expect(created.status).toBe(201);
    const fetched = await call(idle.url, `/api/conversations/${created.body.id}`);
    const searched = await call(idle.url, '/api/conversations/search');
    for (const reply of [created, fetched, searched]) {
      for (const secret of ['env-secret-1', 'header-secret-2', 'password-secret-3'])
        expect(reply.text).not.toContain(secret);
    }
    expect(created.body.agent.mcp_config).toEqual({
      local: { command: 'node', args: ['server.mjs'], env: { API_TOKEN: '**********' }, enabled: true },
      mcpServers: {
        remote: {
          url: 'https://mcp.example.com/mcp',
          headers: { Authorization: '**********' },
          auth: { strategy: 'basic', username: 'me', password: '**********' },
          enabled: true,
        },
      },
    });
  });
});
