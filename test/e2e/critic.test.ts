import type { LlmReplay, RecordedRequest } from '@bosun/llm-replay';
import { describe, expect, it } from 'vitest';
import {
  type ActionEventBody,
  type E2EServer,
  type EventBody,
  llmConfig,
  ofKind,
  outline,
  recordedRequests,
  startStack,
  textOf,
  withoutStats,
} from './support.ts';

/** The first words of every critic request (`CRITIC_PROMPT_START`): how llm-replay tells them apart. */
const CRITIC_START = 'You are the critic of an AI agent';
const CRITIC = { last_user_message_contains: CRITIC_START };
const judge = (score: unknown, message: string) => ({ when: CRITIC, content: JSON.stringify({ score, message }) });

type CriticResultBody = { score: number; message: string | null; metadata?: Record<string, unknown> | null };
type Judged = EventBody & { critic_result?: CriticResultBody | null };
type Usage = Record<
  string,
  { model_name: string; accumulated_token_usage: { response_id: string }; response_latencies: { latency: number }[] }
>;

/** The text of the last user message of a request, whatever its wire API. */
function lastUserText(request: RecordedRequest | undefined): string {
  const { messages } = request?.body as { messages: { role: string; content: unknown }[] };
  const content = messages.filter((m) => m.role === 'user').at(-1)?.content;
  return typeof content === 'string' ? content : textOf(content);
}
const isCritic = (request: RecordedRequest) => lastUserText(request).startsWith(CRITIC_START);

async function usageOf(server: E2EServer, id: string): Promise<Usage> {
  return ((await server.conversation(id)).stats as { usage_to_metrics: Usage }).usage_to_metrics;
}

/** `POST /api/conversations` with an agent on llm-replay, its critic `critic`, and a first message that runs. */
async function startWithCritic(
  server: E2EServer,
  llm: LlmReplay,
  message: string,
  critic: Record<string, unknown> | null,
  tools: { name: string }[] = [{ name: 'terminal' }],
) {
  return server.startConversation(llm, { message, numRetries: 0, tools, agent: { critic } });
}

describe('critic', () => {
  it("judges each step before it is stored: critic_result on the ActionEvents and the agent's answer", async () => {
    const { server, llm } = await startStack({
      turns: [
        { tool_calls: [{ name: 'terminal', id: 'call_echo', arguments: { command: 'echo critic-e2e' } }] },
        // A slow critic: its latency is the delay added before the step is stored (visible in the metadata).
        { ...judge(0.8, 'A sensible first look.'), delay_ms: 250 },
        {
          content: 'Two notes.',
          tool_calls: [
            { name: 'think', id: 'call_t1', arguments: { thought: 'first note' } },
            { name: 'think', id: 'call_t2', arguments: { thought: 'second note' } },
          ],
        },
        judge(1.5, 'Thorough.'),
        { content: 'It printed critic-e2e.' },
        judge(0.35, 'Correct, but terse.'),
      ],
    });
    const created = await startWithCritic(server, llm, 'Print critic-e2e, then say what it printed.', {
      kind: 'LLMCritic',
    });
    await server.waitForStatus(created.id, 'finished');
    const events = await server.allEvents(created.id);

    // Every critique comes right before the step it judges (its usage is recorded first): judged, then stored.
    expect(outline(events).slice(3)).toEqual([
      'state:stats',
      'state:stats',
      'ActionEvent:terminal',
      'ObservationEvent:TerminalObservation',
      'state:stats',
      'state:stats',
      'ActionEvent:think',
      'ActionEvent:think',
      'ObservationEvent:ThinkObservation',
      'ObservationEvent:ThinkObservation',
      'state:stats',
      'state:stats',
      'MessageEvent:agent',
      'status:finished',
    ]);

    const requests = await recordedRequests(llm);
    expect(requests.map(isCritic)).toEqual([false, true, false, true, false, true]);
    const criticIds = requests.filter(isCritic).map((r) => r.turn_index);
    expect(criticIds).toEqual([1, 3, 5]);

    const actions = ofKind<ActionEventBody & Judged>(events, 'ActionEvent');
    expect(actions.map((a) => [a.tool_call_id, a.critic_result?.score, a.critic_result?.message])).toEqual([
      ['call_echo', 0.8, 'A sensible first look.'],
      // The parallel calls of one response are judged once; a score above 1 is clamped.
      ['call_t1', 1, 'Thorough.'],
      ['call_t2', 1, 'Thorough.'],
    ]);
    expect(actions[0]?.critic_result?.metadata).toMatchObject({
      model: 'test-model',
      usage_id: 'critic',
      subject: 'actions',
      tool_call_ids: ['call_echo'],
    });
    expect(actions[0]?.critic_result?.metadata?.latency_ms).toBeGreaterThanOrEqual(240);
    expect(actions[1]?.critic_result?.metadata).toMatchObject({
      tool_call_ids: ['call_t1', 'call_t2'],
      raw_score: 1.5,
    });
    const answer = ofKind<Judged>(events, 'MessageEvent').find((e) => e.source === 'agent');
    expect(answer?.critic_result).toMatchObject({
      score: 0.35,
      message: 'Correct, but terse.',
      metadata: { usage_id: 'critic', subject: 'message' },
    });
    expect(answer?.critic_result?.metadata?.response_id).toMatch(/^chatcmpl-/);
    expect(answer?.critic_result?.metadata?.latency_ms).toEqual(expect.any(Number));

    // What the critic read: one user message, no tools; the task, the history so far and the step judged.
    const [first, second, third] = requests
      .filter(isCritic)
      .map((r) => r.body as { messages: unknown[]; tools?: unknown });
    for (const body of [first, second, third]) {
      expect(body?.tools).toBeUndefined();
      expect(body?.messages).toHaveLength(1);
    }
    const [p1, p2, p3] = requests.filter(isCritic).map(lastUserText);
    expect(p1).toContain('<TASK>\nuser: Print critic-e2e, then say what it printed.\n</TASK>');
    expect(p1).toContain('1. terminal({"command":"echo critic-e2e"})');
    expect(p2).toContain('result of terminal: critic-e2e');
    expect(p2).toContain(
      [
        'Thought: Two notes.',
        "The agent's latest step: 2 tool calls of one response, run in this order:",
        '1. think({"thought":"first note"})',
        '2. think({"thought":"second note"})',
      ].join('\n'),
    );
    expect(p3).toContain('<AGENT FINAL ANSWER>\nIt printed critic-e2e.\n</AGENT FINAL ANSWER>');
    // The agent never sees the critic: its requests hold neither the critic's prompt nor its answers.
    for (const request of requests.filter((r) => !isCritic(r))) {
      expect(JSON.stringify(request.body)).not.toContain(CRITIC_START);
      expect(JSON.stringify(request.body)).not.toContain('A sensible first look.');
    }

    // Usage: the critic's three calls under `critic`, the agent's under `default`.
    const usage = await usageOf(server, created.id);
    expect(Object.keys(usage).sort()).toEqual(['critic', 'default']);
    expect(usage.critic?.accumulated_token_usage.response_id).toBe(answer?.critic_result?.metadata?.response_id);
    expect(usage.critic?.response_latencies).toHaveLength(3);
    expect(usage.critic?.response_latencies[0]?.latency).toBeGreaterThanOrEqual(0.24);
  });

  it('a malformed or failed critique leaves critic_result absent and the run still finishes', async () => {
    const { server, llm } = await startStack({
      turns: [
        { tool_calls: [{ name: 'think', id: 'call_t1', arguments: { thought: 'plan' } }] },
        { when: CRITIC, content: 'This looks fine to me, 8/10.' },
        { tool_calls: [{ name: 'think', id: 'call_t2', arguments: { thought: 'more' } }] },
        { when: CRITIC, error: { status: 400 } },
        { tool_calls: [{ name: 'finish', id: 'call_done', arguments: { message: 'Done.' } }] },
        { when: CRITIC, content: '{"score": "high", "message": "ok"}' },
      ],
    });
    const created = await startWithCritic(server, llm, 'Plan and finish.', { kind: 'LLMCritic' }, []);
    await server.waitForStatus(created.id, 'finished');
    const events = await server.allEvents(created.id);
    const actions = ofKind<ActionEventBody & Judged>(events, 'ActionEvent');
    expect(actions.map((a) => a.tool_call_id)).toEqual(['call_t1', 'call_t2', 'call_done']);
    for (const action of actions) expect(action).not.toHaveProperty('critic_result');
    expect(outline(withoutStats(events)).slice(-2)).toEqual(['ObservationEvent:FinishObservation', 'status:finished']);
    expect(ofKind(events, 'ConversationErrorEvent')).toEqual([]);
    expect((await recordedRequests(llm)).map(isCritic)).toEqual([false, true, false, true, false, true]);
    // The two critiques that got an answer count; the rejected call does not.
    const usage = await usageOf(server, created.id);
    expect(Object.keys(usage).sort()).toEqual(['critic', 'default']);
  });

  it('a critic with its own LLM (another wire API, completion logs), judging messages only, with instructions', async () => {
    const { server, llm } = await startStack({
      turns: [
        { tool_calls: [{ name: 'terminal', id: 'call_echo', arguments: { command: 'echo unjudged' } }] },
        { content: 'Printed unjudged.' },
        judge(0.6, 'Accurate.'),
      ],
    });
    const created = await startWithCritic(server, llm, 'Echo something.', {
      kind: 'LLMCritic',
      llm: {
        ...llmConfig(llm, { model: 'anthropic/judge-model', numRetries: 0 }),
        usage_id: 'judge',
        api_key: 'critic-key-123',
        log_completions: true,
      },
      evaluate: 'messages',
      instructions: 'Answers must quote the command output.',
    });
    await server.waitForStatus(created.id, 'finished');
    const events = await server.allEvents(created.id);

    const [action] = ofKind<ActionEventBody & Judged>(events, 'ActionEvent');
    expect(action).not.toHaveProperty('critic_result');
    const answer = ofKind<Judged>(events, 'MessageEvent').find((e) => e.source === 'agent');
    expect(answer?.critic_result).toMatchObject({
      score: 0.6,
      message: 'Accurate.',
      metadata: { model: 'anthropic/judge-model', usage_id: 'judge', subject: 'message' },
    });
    // The critic's completion log comes before the answer it judged.
    expect(outline(withoutStats(events)).slice(-3)).toEqual([
      'LLMCompletionLogEvent',
      'MessageEvent:agent',
      'status:finished',
    ]);
    expect(ofKind(events, 'LLMCompletionLogEvent')).toEqual([
      expect.objectContaining({ usage_id: 'judge', model_name: 'anthropic/judge-model' }),
    ]);

    const requests = await recordedRequests(llm);
    expect(requests.map((r) => [r.api, isCritic(r)])).toEqual([
      ['chat_completions', false],
      ['chat_completions', false],
      ['messages', true],
    ]);
    const prompt = lastUserText(requests[2]);
    expect((requests[2]?.body as { model: string }).model).toBe('judge-model');
    expect(prompt).toContain('<INSTRUCTIONS>\nAnswers must quote the command output.\n</INSTRUCTIONS>');
    expect(prompt).toContain('result of terminal: unjudged');

    const usage = await usageOf(server, created.id);
    expect(Object.keys(usage).sort()).toEqual(['default', 'judge']);
    expect(usage.judge?.model_name).toBe('anthropic/judge-model');
    // The critic's key is a secret like the agent's.
    const info = await server.api('GET', `/api/conversations/${created.id}`);
    expect(info.body).toMatchObject({ agent: { critic: { kind: 'LLMCritic', llm: { api_key: '**********' } } } });
    expect(server.bodies.join('\n')).not.toContain('critic-key-123');
  });

  it('validates agent.critic: unknown fields, modes and kinds are 422; null means no critic', async () => {
    const { server, llm } = await startStack({ turns: [{ content: 'Hello.' }] });
    const start = (critic: unknown) =>
      server.api<{ detail: { loc: (string | number)[]; msg: string }[] }>('POST', '/api/conversations', {
        agent: { llm: llmConfig(llm), tools: [], critic },
        workspace: { working_dir: server.workspace },
      });
    for (const critic of [
      { kind: 'LLMCritic', threshold: 0.5 },
      { kind: 'LLMCritic', evaluate: 'everything' },
      { kind: 'AgentFinishedCritic' },
      { evaluate: 'all' },
      { kind: 'LLMCritic', instructions: 3 },
      { kind: 'LLMCritic', llm: { model: 'judge', api_kye: 'x' } },
    ]) {
      const reply = await start(critic);
      expect(reply.status, JSON.stringify(critic)).toBe(422);
      expect(reply.body.detail.every((d) => d.loc.slice(0, 3).join('.') === 'body.agent.critic')).toBe(true);
    }
    const none = await startWithCritic(server, llm, 'Hi.', null, []);
    await server.waitForStatus(none.id, 'finished');
    const answer = ofKind<Judged>(await server.allEvents(none.id), 'MessageEvent').find((e) => e.source === 'agent');
    expect(answer).not.toHaveProperty('critic_result');
    expect((await recordedRequests(llm)).map(isCritic)).toEqual([false]);
  });
});
