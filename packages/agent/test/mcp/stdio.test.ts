import { getEventListeners } from 'node:events';
import { mkdir, readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type Observation, Observation as ObservationSchema, ToolDefinition, safeParse } from '@bosun/protocol';
import { describe, expect, it, vi } from 'vitest';
import { llmToolParameters, parseToolCall } from '../../src/loop/tool-arguments.ts';
import { secretMasker } from '../../src/shared/secret-masker.ts';
import { connect, stdioServer, textOf, toolContext, workspace } from './support.ts';

type McpObservation = Extract<Observation, { kind: 'MCPToolObservation' }>;

async function call(tool: ReturnType<Awaited<ReturnType<typeof connect>>['tool']>, args: object, dir: string) {
  const parsed = parseToolCall(tool, JSON.stringify(args));
  if (!parsed.ok) throw new Error(parsed.error);
  const observation = (await tool.execute(parsed.action, toolContext(dir))) as McpObservation;
  expect(safeParse(ObservationSchema, structuredClone(observation)).ok).toBe(true);
  return observation;
}

/** The processes whose command line holds `text` (Linux: /proc/<pid>/cmdline). */
async function processesNaming(text: string): Promise<number[]> {
  const pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name));
  const named = await Promise.all(
    pids.map(async (pid) =>
      (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).includes(text) ? [Number(pid)] : [],
    ),
  );
  return named.flat();
}

describe('a stdio MCP server', () => {
  it("becomes the agent's tools: MCP names, MCPToolDefinitions, the input schema as parameters, readOnlyHint", async () => {
    const servers = await connect({ local: stdioServer() });
    expect(servers.problems).toEqual([]);
    expect(servers.tools.map((tool) => tool.name)).toEqual([
      'echo',
      'add',
      'sleep',
      'fail',
      'crash',
      'env',
      'pixel',
      'where',
    ]);
    const echo = servers.tool('echo');
    expect(echo.actionKind).toBe('MCPToolAction');
    expect(echo.readOnly).toBe(false);
    expect(servers.tool('add').readOnly).toBe(true);
    expect(echo.definition).toMatchObject({
      kind: 'MCPToolDefinition',
      title: 'echo',
      description: 'Echoes the text back.',
      action_type: 'MCPToolAction',
      observation_type: 'MCPToolObservation',
      annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
      meta: { mcp_server: 'local' },
      mcp_tool: { name: 'echo', inputSchema: { type: 'object', required: ['text'] } },
    });
    expect(servers.tool('add').definition.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
    for (const tool of servers.tools) expect(safeParse(ToolDefinition, structuredClone(tool.definition)).ok).toBe(true);
    // What the LLM gets: the schema without $schema, plus summary, and security_risk unless read-only.
    const echoParameters = llmToolParameters(echo) as { properties: Record<string, unknown>; required: string[] };
    expect(echoParameters).not.toHaveProperty('$schema');
    expect(Object.keys(echoParameters.properties)).toEqual(['summary', 'security_risk', 'text']);
    expect(echoParameters.required).toEqual(['text']);
    expect(Object.keys((llmToolParameters(servers.tool('add')) as { properties: object }).properties)).toEqual([
      'summary',
      'a',
      'b',
    ]);
    expect(servers.logs).toEqual([
      expect.objectContaining({ server: 'local', transport: 'stdio', outcome: 'started', tools: expect.any(Array) }),
    ]);
  });

  it('answers calls: text, images, tool errors; bad arguments never reach the server', async () => {
    const servers = await connect({ local: stdioServer(['--name', 'one']) });
    const dir = servers.workspace;

    const parsed = parseToolCall(
      servers.tool('echo'),
      JSON.stringify({ text: 'hi', summary: 'Say hi', security_risk: 'LOW' }),
    );
    expect(parsed).toEqual({
      ok: true,
      action: { kind: 'MCPToolAction', data: { text: 'hi' } },
      summary: 'Say hi',
      securityRisk: 'LOW',
    });
    const echoed = await call(servers.tool('echo'), { text: 'hi' }, dir);
    expect(echoed).toEqual({
      kind: 'MCPToolObservation',
      tool_name: 'echo',
      content: [{ type: 'text', text: 'one echo: hi', cache_prompt: false }],
      is_error: false,
    });
    expect(textOf((await call(servers.tool('add'), { a: 2, b: 40 }, dir)).content)).toBe('42');

    const pixel = await call(servers.tool('pixel'), {}, dir);
    expect(pixel.content[0]).toMatchObject({
      type: 'image',
      image_urls: [expect.stringMatching(/^data:image\/png;base64,iVBOR/)],
    });
    expect(textOf(pixel.content)).toBe('a pixel');

    const failed = await call(servers.tool('fail'), {}, dir);
    expect(failed).toMatchObject({ is_error: true, tool_name: 'fail' });
    expect(textOf(failed.content)).toBe('this tool always fails');

    const wrongType = parseToolCall(servers.tool('add'), JSON.stringify({ a: 1, b: 'two' }));
    expect(wrongType).toEqual({ ok: false, error: expect.stringMatching(/^Error validating tool 'add': b: /) });
    const missing = parseToolCall(servers.tool('echo'), JSON.stringify({ txt: 'typo' }));
    expect(missing.ok).toBe(false);
    expect(!missing.ok && missing.error).toContain('text');
    expect(!missing.ok && missing.error).toContain('Parameters provided: ["txt"]');
  });

  it("runs in the workspace with its own env only, never the agent server's environment", async () => {
    process.env.BOSUN_MCP_TEST_LEAK = 'server-credential';
    try {
      const dir = await workspace();
      await mkdir(join(dir, 'sub'));
      const servers = await connect(
        { here: stdioServer(), there: stdioServer([], { cwd: 'sub', env: { GREETING: 'hello' } }) },
        { workspace: dir },
      );
      expect(textOf((await call(servers.tool('where'), {}, dir)).content)).toBe(dir);
      expect(textOf((await call(servers.tool('there_where'), {}, dir)).content)).toBe(join(dir, 'sub'));
      expect(textOf((await call(servers.tool('there_env'), { variable: 'GREETING' }, dir)).content)).toBe('hello');
      expect(textOf((await call(servers.tool('env'), { variable: 'BOSUN_MCP_TEST_LEAK' }, dir)).content)).toBe(
        '(unset)',
      );
      expect(textOf((await call(servers.tool('env'), { variable: 'PATH' }, dir)).content)).not.toBe('(unset)');
    } finally {
      delete process.env.BOSUN_MCP_TEST_LEAK;
    }
  });

  it('gives an error observation for a call that times out, and the server keeps answering', async () => {
    const servers = await connect({ slow: stdioServer([], { timeout: 0.4 }) });
    const started = Date.now();
    const timedOut = await call(servers.tool('sleep'), { ms: 5000 }, servers.workspace);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(timedOut.is_error).toBe(true);
    expect(textOf(timedOut.content)).toMatch(/^MCP tool 'sleep' of server 'slow' failed: .*timed out/i);
    expect(textOf((await call(servers.tool('echo'), { text: 'still here' }, servers.workspace)).content)).toBe(
      'stdio echo: still here',
    );
  });

  it("leaves no listener on the run's signal, whatever the number of calls", async () => {
    const servers = await connect({ local: stdioServer() });
    const controller = new AbortController();
    const context = toolContext(servers.workspace, controller);
    for (let i = 0; i < 15; i++) {
      await servers.tool('echo').execute({ kind: 'MCPToolAction', data: { text: String(i) } }, context);
    }
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('cancels a call when the run is paused (its signal aborts)', async () => {
    const servers = await connect({ local: stdioServer() });
    const tool = servers.tool('sleep');
    const controller = new AbortController();
    const pending = tool.execute(
      { kind: 'MCPToolAction', data: { ms: 5000 } },
      toolContext(servers.workspace, controller),
    );
    // In flight once the call listens to the run's signal (and only then, as the listener test shows).
    await vi.waitFor(() => expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1));
    controller.abort();
    const observation = (await pending) as McpObservation;
    expect(observation.is_error).toBe(true);
    expect(textOf(observation.content)).toContain('the call was cancelled');
  });

  it('gives an error observation when the server crashes mid-call, and starts it again for the next call', async () => {
    const servers = await connect({ fragile: stdioServer() });
    const crashed = await call(servers.tool('crash'), {}, servers.workspace);
    expect(crashed.is_error).toBe(true);
    expect(textOf(crashed.content)).toMatch(/^MCP tool 'crash' of server 'fragile' failed: .*closed/i);
    expect(textOf((await call(servers.tool('echo'), { text: 'back' }, servers.workspace)).content)).toBe(
      'stdio echo: back',
    );
  });

  it('reports servers that fail to start as problems (the others start): missing program, early exit, no answer', async () => {
    const pidFile = join(await workspace(), 'hangs.pid');
    const servers = await connect({
      missing: { command: '/nonexistent/bosun-mcp-server', enabled: true },
      exits: stdioServer(['--fail-start']),
      hangs: stdioServer(['--hang', '--pid-file', pidFile], { startup_timeout: 0.5 }),
      good: stdioServer(),
    });
    expect(servers.tools.map((tool) => tool.name)).toContain('echo');
    expect(servers.problems.map((problem) => problem.server)).toEqual(['missing', 'exits', 'hangs']);
    const [missing, exits, hangs] = servers.problems.map((problem) => problem.message);
    expect(missing).toMatch(/ENOENT/);
    expect(exits).toMatch(/closed/i);
    expect(exits).toContain('stderr: fatal: the test server was told not to start');
    expect(hangs).toMatch(/timed out after 0.5 s/);
    expect(servers.logs.map((log) => [log.server, log.outcome])).toEqual([
      ['missing', 'failed'],
      ['exits', 'failed'],
      ['hangs', 'failed'],
      ['good', 'started'],
    ]);
    expect(servers.logs.find((log) => log.server === 'hangs')?.durationMs).toBeGreaterThanOrEqual(450);
    // The server that never answered is gone when its failure is told, not left to a later stop that an agent
    // server stopping meanwhile would never make.
    // (Under load it may be killed before it wrote its pid: its command line, which names the file, finds it.)
    expect(await processesNaming(pidFile)).toEqual([]);
  });

  it('tries failed servers again on retryFailed, and adds their tools', async () => {
    const dir = await workspace();
    const servers = await connect({ later: stdioServer([], { cwd: 'not-yet' }) }, { workspace: dir, retryAfterMs: 0 });
    expect(servers.tools).toEqual([]);
    expect(servers.problems).toHaveLength(1);
    expect(await servers.retryFailed()).toEqual({
      tools: [],
      problems: [expect.objectContaining({ server: 'later' })],
    });
    await mkdir(join(dir, 'not-yet'));
    const retried = await servers.retryFailed();
    expect(retried.problems).toEqual([]);
    expect(retried.tools.map((tool) => tool.name)).toContain('echo');
    expect(servers.tools).toHaveLength(retried.tools.length);
    expect(servers.problems).toEqual([]);
  });

  it('waits retryAfterMs before trying a failed server again', async () => {
    const servers = await connect({ broken: { command: '/nonexistent/x', enabled: true } }, { retryAfterMs: 60_000 });
    expect(servers.logs).toHaveLength(1);
    await servers.retryFailed();
    expect(servers.logs).toHaveLength(1);
  });

  it('names colliding tools deterministically: built-ins and earlier servers keep theirs, later ones get <server>_<tool>', async () => {
    const servers = await connect(
      { first: stdioServer(['--name', 'first']), 'second.srv': stdioServer(['--name', 'second']) },
      { reservedNames: ['add', 'terminal'] },
    );
    const names = servers.tools.map((tool) => tool.name);
    expect(names.slice(0, 8)).toEqual(['echo', 'first_add', 'sleep', 'fail', 'crash', 'env', 'pixel', 'where']);
    expect(names.slice(8)).toEqual([
      'second_srv_echo',
      'second_srv_add',
      'second_srv_sleep',
      'second_srv_fail',
      'second_srv_crash',
      'second_srv_env',
      'second_srv_pixel',
      'second_srv_where',
    ]);
    expect(textOf((await call(servers.tool('second_srv_echo'), { text: 'x' }, servers.workspace)).content)).toBe(
      'second echo: x',
    );
    // The definition keeps the MCP tool's own name; the observation names the MCP tool that was called.
    expect(servers.tool('first_add').definition).toMatchObject({ title: 'first_add', mcp_tool: { name: 'add' } });
  });

  it('masks secrets (the given ones, and the servers env and header values) in failures', async () => {
    const servers = await connect(
      { leaky: { command: '/nonexistent/${TOKEN}/server', env: { KEY: 'env-value-123' }, enabled: true } },
      { variables: { TOKEN: 'conversation-secret' }, mask: secretMasker(['conversation-secret']) },
    );
    const message = servers.problems[0]?.message ?? '';
    expect(message).toContain('<secret-hidden>');
    expect(message).not.toContain('conversation-secret');
    expect(JSON.stringify(servers.logs)).not.toContain('conversation-secret');
  });

  it('stops its servers on close; calls after that are error observations', async () => {
    const servers = await connect({ local: stdioServer() });
    await servers.close();
    const observation = await call(servers.tool('echo'), { text: 'x' }, servers.workspace);
    expect(observation.is_error).toBe(true);
    expect(textOf(observation.content)).toContain('is closed');
  });
});
