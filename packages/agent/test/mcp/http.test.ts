import { describe, expect, it, onTestFinished } from 'vitest';
// @ts-expect-error: a plain ESM fixture without types.
import { startHttpMcpServer, startSseMcpServer } from '../../../../test/fixtures/mcp/http-server.mjs';
import { closedPort } from '../../../sources/test/support/closed-port.ts';
import { parseToolCall } from '../../src/loop/tool-arguments.ts';
import { connect, textOf, toolContext } from './support.ts';

interface HttpFixture {
  url: string;
  requests: { method: string; authorization?: string }[];
  close(): Promise<void>;
}

async function httpServer(options: { token?: string } = {}): Promise<HttpFixture> {
  const server = (await startHttpMcpServer(options)) as HttpFixture;
  onTestFinished(() => server.close());
  return server;
}

describe('a streamable HTTP MCP server', () => {
  it('lists its tools and answers calls, sending the configured headers with every request', async () => {
    const http = await httpServer({ token: 'http-secret' });
    const servers = await connect({
      remote: { url: http.url, headers: { Authorization: 'Bearer http-secret' }, enabled: true },
    });
    expect(servers.problems).toEqual([]);
    expect(servers.logs[0]).toMatchObject({ server: 'remote', transport: 'http', outcome: 'started' });
    const echo = servers.tool('echo');
    expect(echo.definition).toMatchObject({ kind: 'MCPToolDefinition', meta: { mcp_server: 'remote' } });
    const parsed = parseToolCall(echo, JSON.stringify({ text: 'over http' }));
    if (!parsed.ok) throw new Error(parsed.error);
    const observation = await echo.execute(parsed.action, toolContext(servers.workspace));
    expect(observation).toMatchObject({ kind: 'MCPToolObservation', tool_name: 'echo', is_error: false });
    expect(textOf(observation.content)).toBe('http echo: over http');
    expect(http.requests.length).toBeGreaterThanOrEqual(3);
    for (const request of http.requests) expect(request.authorization).toBe('Bearer http-secret');
  });

  it('takes auth (bearer) as headers, and `transport: streamable-http`', async () => {
    const http = await httpServer({ token: 't0ken' });
    const servers = await connect({
      remote: {
        url: http.url,
        transport: 'streamable-http',
        auth: { strategy: 'bearer', value: 't0ken' },
        enabled: true,
      },
    });
    expect(servers.problems).toEqual([]);
    expect(servers.tools.map((tool) => tool.name)).toContain('add');
  });

  it('reports a server that refuses the credentials or is not there as a problem, with the secret masked', async () => {
    const http = await httpServer({ token: 'right' });
    const port = await closedPort();
    const servers = await connect({
      refused: { url: http.url, headers: { Authorization: 'Bearer wrong-token' }, enabled: true },
      absent: { url: `http://127.0.0.1:${port}/mcp`, enabled: true },
    });
    expect(servers.tools).toEqual([]);
    const [refused, absent] = servers.problems;
    expect(refused).toMatchObject({ server: 'refused', message: expect.stringContaining('401') });
    expect(absent).toMatchObject({ server: 'absent', message: expect.stringMatching(/fetch failed|ECONNREFUSED/) });
    expect(JSON.stringify(servers.problems)).not.toContain('wrong-token');
  });
});

describe('an SSE MCP server (transport: sse)', () => {
  it('lists its tools and answers calls', async () => {
    const sse = (await startSseMcpServer()) as { url: string; close(): Promise<void> };
    onTestFinished(() => sse.close());
    const servers = await connect({ legacy: { url: sse.url, transport: 'sse', enabled: true } });
    expect(servers.problems).toEqual([]);
    expect(servers.logs[0]).toMatchObject({ transport: 'sse', outcome: 'started' });
    const observation = await servers
      .tool('add')
      .execute({ kind: 'MCPToolAction', data: { a: 1, b: 2 } }, toolContext(servers.workspace));
    expect(observation).toMatchObject({ is_error: false });
    expect(textOf(observation.content)).toBe('3');
  });
});
