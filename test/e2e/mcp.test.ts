import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLlmReplay } from '@bosun/llm-replay';
import { describe, expect, it, onTestFinished } from 'vitest';
import { isRunning } from '../../packages/agent/src/tools/terminal/processes.ts';
import {
  type EventBody,
  FINISHING,
  actionsOf,
  llmConfig,
  observationsOf,
  ofKind,
  outline,
  recordedRequests,
  restartableServer,
  startStack,
  textOf,
  withoutStats,
} from './support.ts';
import { finish } from './turns.ts';

/** The test MCP server (plain ESM over stdio), shared with the agent's unit tests. */
const STDIO_SERVER = fileURLToPath(new URL('../fixtures/mcp/stdio-server.mjs', import.meta.url));
const GREETING = 'mcp-greeting-secret-789';

type ChatRequest = {
  messages: { role: string; content: string | { type: string; text: string }[] | null }[];
  tools: { type: string; function: { name: string; parameters: { properties: Record<string, unknown> } } }[];
};
type AgentErrorBody = EventBody & { tool_name: string; error: string };

const contentText = (content: ChatRequest['messages'][number]['content']) =>
  typeof content === 'string' ? content : (content ?? []).map((block) => block.text).join('\n');

describe('MCP servers in a conversation', () => {
  it('answers tool calls from a real stdio MCP server; a bad call and a broken server never stop the run', async () => {
    const { server, llm } = await startStack({
      turns: [
        {
          content: 'Using the MCP tools.',
          tool_calls: [
            { id: 'call_echo', name: 'echo', arguments: { text: 'hello', summary: 'Echo hello' } },
            { id: 'call_add', name: 'add', arguments: { a: 2, b: 40 } },
            { id: 'call_env', name: 'env', arguments: { variable: 'GREETING' } },
          ],
        },
        { tool_calls: [{ id: 'call_bad', name: 'add', arguments: { a: 'two', b: 40 } }] },
        { tool_calls: [{ id: 'call_slow', name: 'slow_sleep', arguments: { ms: 20_000 } }] },
        { tool_calls: [{ id: 'call_finish', name: 'finish', arguments: { message: 'The MCP server answered.' } }] },
      ],
    });
    const { id } = await server.startConversation(llm, {
      message: 'Use the MCP server.',
      tools: [{ name: 'terminal' }],
      agent: {
        mcp_config: {
          calc: {
            command: process.execPath,
            args: [STDIO_SERVER, '--name', 'calc'],
            env: { GREETING: '${MCP_GREETING}' },
          },
          mcpServers: {
            broken: { command: '/nonexistent/mcp-server' },
          },
          slow: { command: process.execPath, args: [STDIO_SERVER, '--name', 'slow'], timeout: 1 },
        },
      },
      extra: { secrets: { MCP_GREETING: GREETING } },
    });
    await server.waitForStatus(id, 'finished');

    const events = await server.allEvents(id);
    expect(outline(withoutStats(events))).toEqual([
      'SystemPromptEvent',
      'ConversationErrorEvent',
      'MessageEvent:user',
      'status:running',
      'ActionEvent:echo',
      'ActionEvent:add',
      'ActionEvent:env',
      'ObservationEvent:MCPToolObservation',
      'ObservationEvent:MCPToolObservation',
      'ObservationEvent:MCPToolObservation',
      'ActionEvent:add',
      'AgentErrorEvent',
      'ActionEvent:slow_sleep',
      'ObservationEvent:MCPToolObservation',
      ...FINISHING,
    ]);

    // The system prompt lists the MCP tools (the second server's colliding names are prefixed) and says which
    // server failed.
    const [systemPrompt] = events as [
      EventBody & { tools: { kind: string; title: string }[]; dynamic_context: unknown },
    ];
    const mcpTitles = systemPrompt.tools.filter((tool) => tool.kind === 'MCPToolDefinition').map((tool) => tool.title);
    expect(mcpTitles).toEqual(expect.arrayContaining(['echo', 'add', 'env', 'slow_echo', 'slow_sleep']));
    expect(JSON.stringify(systemPrompt.dynamic_context)).toContain("The MCP server 'broken' failed to start");
    const failure = ofKind<EventBody & { code: string; detail: string }>(events, 'ConversationErrorEvent')[0];
    expect(failure).toMatchObject({ source: 'environment', code: 'MCPServerError' });
    expect(failure?.detail).toMatch(/^MCP server 'broken' is not available \(its tools are missing\): .*ENOENT/);

    const actions = actionsOf(events);
    expect(actions[0]).toMatchObject({
      tool_name: 'echo',
      action: { kind: 'MCPToolAction', data: { text: 'hello' } },
      summary: 'Echo hello',
    });
    expect(actions[3]).toMatchObject({ tool_name: 'add', action: null });
    const observations = observationsOf(events);
    const [echo, add, env, slow] = observations.map((event) => event.observation);
    expect(echo).toEqual({
      kind: 'MCPToolObservation',
      tool_name: 'echo',
      content: [{ type: 'text', text: 'calc echo: hello', cache_prompt: false }],
      is_error: false,
    });
    expect(textOf(add?.content)).toBe('42');
    // The server got the secret through `${MCP_GREETING}`; what it returned is masked like any tool output.
    expect(textOf(env?.content)).toBe('<secret-hidden>');
    expect(slow).toMatchObject({ tool_name: 'sleep', is_error: true });
    expect(textOf(slow?.content)).toMatch(/^MCP tool 'sleep' of server 'slow' failed: .*timed out/i);
    const [badCall] = ofKind<AgentErrorBody>(events, 'AgentErrorEvent');
    expect(badCall?.error).toBe(
      'Error validating tool \'add\': a: Input should be a valid number, got string "two". Parameters provided: ["a","b"]',
    );

    // What the LLM saw: the MCP tools with their input schemas, and the servers' answers as tool results.
    const requests = (await recordedRequests(llm)).map((request) => request.body as ChatRequest);
    expect(requests).toHaveLength(4);
    const echoTool = requests[0]?.tools.find((tool) => tool.function.name === 'echo');
    expect(Object.keys(echoTool?.function.parameters.properties ?? {})).toEqual(['summary', 'security_risk', 'text']);
    const addTool = requests[0]?.tools.find((tool) => tool.function.name === 'add');
    expect(Object.keys(addTool?.function.parameters.properties ?? {})).toEqual(['summary', 'a', 'b']);
    expect(requests[0]?.tools.map((tool) => tool.function.name)).not.toContain('broken');
    const toolResults = (requests[1]?.messages ?? [])
      .filter((m) => m.role === 'tool')
      .map((m) => contentText(m.content));
    expect(toolResults).toEqual(['calc echo: hello', '42', '<secret-hidden>']);

    // The configuration is shown as sent, its env redacted; the secret is nowhere.
    const info = await server.api<{ agent: { mcp_config: { calc: { env: unknown } } } }>(
      'GET',
      `/api/conversations/${id}`,
    );
    expect(info.body.agent.mcp_config.calc.env).toEqual({ GREETING: '**********' });
    for (const text of [JSON.stringify(events), ...server.bodies]) expect(text).not.toContain(GREETING);
  });

  it('runs an MCP action accepted after a restart: the servers stop with the agent server and start again', async () => {
    const llm = await startLlmReplay({
      script: {
        turns: [
          { tool_calls: [{ id: 'call_echo', name: 'echo', arguments: { text: 'after restart' } }] },
          finish('Done.'),
        ],
      },
    });
    onTestFinished(() => llm.close());
    const { root, server, start, stop } = await restartableServer();
    const pidFile = join(root, 'pids');
    const pids = async () => (await readFile(pidFile, 'utf8')).trim().split('\n').map(Number);

    await start();
    const created = await server.api<{ id: string }>('POST', '/api/conversations', {
      agent: {
        llm: llmConfig(llm),
        mcp_config: { calc: { command: process.execPath, args: [STDIO_SERVER, '--pid-file', pidFile] } },
      },
      workspace: { working_dir: server.workspace },
      confirmation_policy: { kind: 'AlwaysConfirm' },
      initial_message: { role: 'user', content: [{ type: 'text', text: 'Echo.' }] },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id;
    await server.waitForStatus(id, 'waiting_for_confirmation');
    const [first] = await pids();
    expect(await isRunning(first as number)).toBe(true);

    await stop();
    // Stopping the agent server stopped the MCP server it had started.
    expect(await isRunning(first as number)).toBe(false);

    await start();
    const accepted = await server.api('POST', `/api/conversations/${id}/events/respond_to_confirmation`, {
      accept: true,
    });
    expect(accepted.status, accepted.text).toBe(200);
    await server.waitFor(id, (info) => info.execution_status === 'finished');
    const events = withoutStats(await server.allEvents(id));
    expect(outline(events).slice(-5)).toEqual(['status:running', 'ObservationEvent:MCPToolObservation', ...FINISHING]);
    const [observation] = observationsOf(events);
    expect(textOf(observation?.observation.content)).toBe('stdio echo: after restart');
    expect(await pids()).toHaveLength(2);
  });
});
