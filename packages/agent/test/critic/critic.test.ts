import {
  CRITIC_PROMPT_START,
  type CriticFailure,
  LLMCritic,
  type LLMProvider,
  LLMServiceUnavailableError,
  criticSettings,
} from '@bosun/agent';
import { AgentSpec, type NewEvent, parse } from '@bosun/protocol';
import { describe, expect, it } from 'vitest';
import { MemorySession, ScriptedProvider, call, system, user } from '../condenser/fixtures.ts';
import { type ActionDraft, actionDraft, criticAgent, messageDraft } from './support.ts';

function criticOf(critic: Record<string, unknown>, answers: (string | Error)[]) {
  const agent = criticAgent({ kind: 'LLMCritic', ...critic });
  const settings = criticSettings(agent);
  if (!settings) throw new Error('no critic');
  const provider = new ScriptedProvider(answers);
  const failures: CriticFailure[] = [];
  const session = new MemorySession(agent, [system(), user('Build it.', 'u1'), ...call('c1')]);
  return { critic: new LLMCritic(settings, provider, (f) => failures.push(f)), provider, failures, session };
}

const promptOf = (provider: ScriptedProvider, index = 0) =>
  (provider.requests[index]?.messages[0]?.content[0] as { text: string }).text;
const criticResults = (events: NewEvent[]) =>
  events.map((event) => (event as { critic_result?: unknown }).critic_result);

describe('critic settings', () => {
  it('null and absent mean no critic', () => {
    expect(criticSettings(criticAgent(null))).toBeUndefined();
    expect(criticSettings(criticAgent(undefined))).toBeUndefined();
  });

  it("defaults: the agent's LLM under usage id critic, evaluate all, no instructions", () => {
    expect(criticSettings(criticAgent({ kind: 'LLMCritic' }))).toEqual({
      llm: expect.objectContaining({ model: 'test-model', usage_id: 'critic' }),
      evaluate: 'all',
      instructions: null,
    });
  });

  it('keeps an LLM of its own, the evaluate mode and the instructions as given', () => {
    const settings = criticSettings(
      criticAgent({
        kind: 'LLMCritic',
        llm: { model: 'judge', usage_id: 'judge' },
        evaluate: 'messages',
        instructions: '  Be strict.  ',
      }),
    );
    expect(settings).toMatchObject({ llm: { model: 'judge', usage_id: 'judge' }, evaluate: 'messages' });
    expect(settings?.instructions).toBe('Be strict.');
  });

  it('the schema rejects unknown fields, unknown modes and a missing kind', () => {
    const bad = (critic: Record<string, unknown>) => () => parse(AgentSpec, { llm: { model: 'test-model' }, critic });
    expect(bad({ kind: 'LLMCritic', threshold: 0.5 })).toThrow(/threshold|additional/i);
    expect(bad({ kind: 'LLMCritic', evaluate: 'everything' })).toThrow();
    expect(bad({ kind: 'OtherCritic' })).toThrow();
    expect(bad({ evaluate: 'all' })).toThrow();
    expect(bad({ kind: 'LLMCritic', llm: { model: 'judge', temperatur: 0 } })).toThrow();
  });
});

describe('LLMCritic', () => {
  it('judges the calls of one response once and sets the same result on each ActionEvent', async () => {
    const { critic, provider, session, failures } = criticOf({}, ['{"score": 0.75, "message": "Reasonable."}']);
    const batch = [
      actionDraft('c2', 'terminal', { command: 'ls' }),
      actionDraft('c3', 'terminal', { command: 'cat README.md' }),
    ];
    const judged = await critic.critique(session, batch);
    expect(provider.requests).toHaveLength(1);
    const request = provider.requests[0];
    expect(request?.tools).toEqual([]);
    expect(request?.messages.map((m) => m.role)).toEqual(['user']);
    expect(promptOf(provider)).toContain(CRITIC_PROMPT_START);
    expect(promptOf(provider)).toContain('1. terminal({"command":"ls"})\n2. terminal({"command":"cat README.md"})');
    expect(promptOf(provider)).toContain('<TASK>\nuser: Build it.\n</TASK>');

    const expected = {
      score: 0.75,
      message: 'Reasonable.',
      metadata: {
        model: 'test-model',
        usage_id: 'critic',
        response_id: 'resp-1',
        latency_ms: 1,
        subject: 'actions',
        tool_call_ids: ['c2', 'c3'],
      },
    };
    expect(criticResults(judged)).toEqual([expected, expected]);
    expect(judged.map((e) => (e as ActionDraft).tool_call_id)).toEqual(['c2', 'c3']);
    // The drafts themselves are left as they were.
    expect(criticResults(batch)).toEqual([undefined, undefined]);
    expect(session.usage).toEqual([{ usageId: 'critic', responseId: 'resp-1' }]);
    expect(failures).toEqual([]);
  });

  it("judges the agent's text answer; a blank answer and other messages are not judged", async () => {
    const { critic, provider, session } = criticOf({}, ['{"score": 0.2, "message": "Claims success untested."}']);
    const [judged] = await critic.critique(session, [messageDraft('All done!')]);
    expect(judged).toMatchObject({
      kind: 'MessageEvent',
      critic_result: { score: 0.2, message: 'Claims success untested.', metadata: { subject: 'message' } },
    });
    expect(promptOf(provider)).toContain('<AGENT FINAL ANSWER>\nAll done!\n</AGENT FINAL ANSWER>');

    const blank = messageDraft('   ');
    expect(await critic.critique(session, [blank])).toEqual([blank]);
    const environment = { ...messageDraft('nudge'), source: 'environment' } as NewEvent;
    expect(await critic.critique(session, [environment])).toEqual([environment]);
    expect(provider.requests).toHaveLength(1);
  });

  it('evaluate: actions leaves messages alone; evaluate: messages leaves actions alone', async () => {
    const actionsOnly = criticOf({ evaluate: 'actions' }, []);
    const message = messageDraft('Done.');
    expect(await actionsOnly.critic.critique(actionsOnly.session, [message])).toEqual([message]);
    const messagesOnly = criticOf({ evaluate: 'messages' }, []);
    const action = actionDraft('c2', 'think', { thought: 'x' });
    expect(await messagesOnly.critic.critique(messagesOnly.session, [action])).toEqual([action]);
    expect(actionsOnly.provider.requests).toHaveLength(0);
    expect(messagesOnly.provider.requests).toHaveLength(0);
  });

  it('clamps an out-of-range score and keeps the raw one in the metadata', async () => {
    const { critic, session } = criticOf({}, ['{"score": 1.4, "message": "Excellent."}']);
    const [judged] = await critic.critique(session, [actionDraft('c2', 'think', { thought: 'x' })]);
    expect(judged).toMatchObject({ critic_result: { score: 1, metadata: { raw_score: 1.4 } } });
  });

  it('an unreadable answer: no critic_result, the failure is reported, the usage still counts', async () => {
    const { critic, session, failures } = criticOf({}, ['Looks good to me! 9/10']);
    const batch = [actionDraft('c2', 'think', { thought: 'x' })];
    expect(await critic.critique(session, batch)).toEqual(batch);
    expect(failures).toEqual([
      {
        subject: 'actions',
        toolCallIds: ['c2'],
        reason: expect.stringContaining("The critic's answer is not JSON"),
        criticResponseId: 'resp-1',
      },
    ]);
    expect(session.usage).toEqual([{ usageId: 'critic', responseId: 'resp-1' }]);
  });

  it('a failed LLM call: no critic_result, the failure is reported, nothing is thrown', async () => {
    const { critic, session, failures } = criticOf({}, [new LLMServiceUnavailableError('upstream down', 503)]);
    const message = messageDraft('Done.');
    expect(await critic.critique(session, [message])).toEqual([message]);
    expect(failures).toEqual([
      expect.objectContaining({
        subject: 'message',
        llmResponseId: 'resp-answer',
        reason: "The critic's LLM call failed: upstream down",
      }),
    ]);
    expect(session.usage).toEqual([]);
  });

  it('an aborted run is not swallowed', async () => {
    const agent = criticAgent({ kind: 'LLMCritic' });
    const controller = new AbortController();
    const provider: LLMProvider = {
      config: agent.llm,
      async complete() {
        controller.abort();
        throw new Error('aborted');
      },
    };
    const critic = new LLMCritic(criticSettings(agent) as NonNullable<ReturnType<typeof criticSettings>>, provider);
    const session = new MemorySession(agent, [system()]);
    await expect(critic.critique(session, [messageDraft('Done.')], controller.signal)).rejects.toThrow('aborted');
  });

  it("with log_completions on the critic's LLM, its completion log comes first", async () => {
    const { critic, session } = criticOf({ llm: { model: 'judge', usage_id: 'judge', log_completions: true } }, [
      '{"score": 0.5, "message": "Fine."}',
    ]);
    const judged = await critic.critique(session, [messageDraft('Done.')]);
    expect(judged.map((e) => e.kind)).toEqual(['LLMCompletionLogEvent', 'MessageEvent']);
    expect(judged[0]).toMatchObject({ usage_id: 'judge', model_name: 'judge' });
    expect(judged[1]).toMatchObject({ critic_result: { metadata: { model: 'judge', usage_id: 'judge' } } });
    expect(session.usage).toEqual([{ usageId: 'judge', responseId: 'resp-1' }]);
  });
});
