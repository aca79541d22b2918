import {
  CONTEXT_WINDOW_CODE,
  LLMRequestError,
  LLMServiceUnavailableError,
  SUMMARY_PROMPT_START,
  SummarizingCondenser,
  completeWithCondensation,
  condenserProblems,
  condenserSettings,
  llmView,
} from '@bosun/agent';
import type { Event, Message } from '@bosun/protocol';
import { describe, expect, it } from 'vitest';
import { MemorySession, ScriptedProvider, agentWith, call, ids, observation, system, user } from './fixtures.ts';

const condenserAgent = (extra: Record<string, unknown> = {}) =>
  agentWith({ kind: 'LLMSummarizingCondenser', max_size: 8, keep_first: 2, ...extra });

function condenserOf(session: MemorySession, answers: (string | Error)[]) {
  const provider = new ScriptedProvider(answers);
  const settings = condenserSettings(session.agent);
  if (!settings) throw new Error('no condenser');
  return { condenser: new SummarizingCondenser(settings, provider), provider };
}

const promptOf = (provider: ScriptedProvider, index = 0) =>
  (provider.requests[index]?.messages[0]?.content[0] as { text: string }).text;

const conversation = (calls: number): Event[] => [
  system(),
  user('Build it.', 'u'),
  ...Array.from({ length: calls }, (_, i) => call(`c${i + 1}`)).flat(),
];

describe('condenser settings', () => {
  it('null, absent and NoOpCondenser mean no condenser', () => {
    expect(condenserSettings(agentWith(null))).toBeUndefined();
    expect(condenserSettings(agentWith({ kind: 'NoOpCondenser' }))).toBeUndefined();
  });

  it("defaults: max_size 120, keep_first 4, the agent's LLM under usage id condenser", () => {
    const settings = condenserSettings(agentWith({ kind: 'LLMSummarizingCondenser' }));
    expect(settings).toMatchObject({ maxSize: 120, keepFirst: 4, maxTokens: null });
    expect(settings?.llm).toMatchObject({ model: 'test-model', usage_id: 'condenser' });
  });

  it('keeps an LLM of its own as given', () => {
    const agent = agentWith({ kind: 'LLMSummarizingCondenser', llm: { model: 'small', usage_id: 'summaries' } });
    expect(condenserSettings(agent)?.llm).toMatchObject({ model: 'small', usage_id: 'summaries' });
  });

  it('rejects a keep_first that leaves no room for a tail', () => {
    expect(condenserProblems(condenserAgent(), ['body', 'agent'])).toEqual([]);
    expect(condenserProblems(condenserAgent({ keep_first: 3 }), ['body', 'agent'])).toEqual([
      expect.objectContaining({ loc: ['body', 'agent', 'condenser', 'keep_first'], type: 'value_error' }),
    ]);
  });
});

describe('SummarizingCondenser', () => {
  it('does nothing while the view fits', async () => {
    const session = new MemorySession(condenserAgent(), conversation(3)); // 8 events: not more than max_size
    const { condenser, provider } = condenserOf(session, []);
    await condenser.condenseIfNeeded(session);
    expect(provider.requests).toEqual([]);
    expect(session.log).toHaveLength(8);
  });

  it('condenses by size: forgets the middle, keeps keep_first and a tail, summary at offset keep_first', async () => {
    const session = new MemorySession(condenserAgent(), conversation(4)); // 10 events > 8
    const { condenser, provider } = condenserOf(session, ['Summary one.']);
    const history = await condenser.condenseIfNeeded(session);

    // Tail: max_size / 2 - keep_first - 1 = 1 event, moved back so that c4's call stays with its result.
    const condensation = session.log[session.log.length - 1];
    expect(condensation).toMatchObject({
      kind: 'Condensation',
      forgotten_event_ids: ['c1-action', 'c1-obs', 'c2-action', 'c2-obs', 'c3-action', 'c3-obs'],
      summary: 'Summary one.',
      summary_offset: 2,
      llm_response_id: 'resp-1',
    });
    expect(ids(llmView(history).events)).toEqual(['sys', 'u', `${condensation?.id}-summary`, 'c4-action', 'c4-obs']);
    expect(session.usage).toEqual([{ usageId: 'condenser', responseId: 'resp-1' }]);
    // The summary request: one user message, no tools, the forgotten events as text.
    const request = provider.requests[0];
    expect(request?.tools).toEqual([]);
    expect(request?.messages.map((m: Message) => m.role)).toEqual(['user']);
    const prompt = promptOf(provider);
    expect(prompt.startsWith(SUMMARY_PROMPT_START)).toBe(true);
    expect(prompt).toContain('<EVENT id=c1-action kind=ActionEvent>');
    expect(prompt).toContain('result of think: result of c3');
    expect(prompt).not.toContain('c4');
    expect(prompt).not.toContain('Build it.');
  });

  it('a second condensation forgets the first summary and gives it to the LLM as the previous summary', async () => {
    const session = new MemorySession(condenserAgent(), conversation(4));
    const { condenser, provider } = condenserOf(session, ['Summary one.', 'Summary two.']);
    await condenser.condenseIfNeeded(session);
    const first = session.log[session.log.length - 1] as Event;
    await session.append([...call('c5'), ...call('c6'), ...call('c7')]); // view: 5 + 6 = 11 > 8
    const history = await condenser.condenseIfNeeded(session);
    const second = session.log[session.log.length - 1] as Event;
    expect(second).toMatchObject({
      kind: 'Condensation',
      forgotten_event_ids: [`${first.id}-summary`, 'c4-action', 'c4-obs', 'c5-action', 'c5-obs', 'c6-action', 'c6-obs'],
      summary: 'Summary two.',
      summary_offset: 2,
    });
    expect(ids(llmView(history).events)).toEqual(['sys', 'u', `${second.id}-summary`, 'c7-action', 'c7-obs']);
    expect(promptOf(provider, 1)).toContain('<PREVIOUS SUMMARY>\nSummary one.\n</PREVIOUS SUMMARY>');
    // Nothing was deleted from the log: 10 + 1 + 6 + 1 events.
    expect(session.log).toHaveLength(18);
  });

  it('condenses by estimated tokens, keeping a tail within half of max_tokens', async () => {
    const long = 'x'.repeat(400); // about 100 tokens per result
    const events = conversation(3).map(
      (event): Event => (event.kind === 'ObservationEvent' ? observation(event.tool_call_id, long) : event),
    );
    const session = new MemorySession(condenserAgent({ max_tokens: 250 }), events);
    const { condenser } = condenserOf(session, ['Short.']);
    await condenser.condenseIfNeeded(session);
    expect(session.log[session.log.length - 1]).toMatchObject({
      kind: 'Condensation',
      forgotten_event_ids: ['c1-action', 'c1-obs', 'c2-action', 'c2-obs'],
    });
  });

  it('a request condenses the older half even when the view is small; a soft size failure is ignored', async () => {
    const session = new MemorySession(condenserAgent(), conversation(2));
    const { condenser } = condenserOf(session, ['Half.']);
    expect(await condenser.condenseOnRequest(session)).toBe(true);
    expect(session.log.slice(-2).map((event) => event.kind)).toEqual(['CondensationRequest', 'Condensation']);
    expect(session.log[session.log.length - 1]).toMatchObject({ forgotten_event_ids: ['c1-action', 'c1-obs'] });

    const big = new MemorySession(condenserAgent(), conversation(5));
    const failing = condenserOf(big, [new LLMServiceUnavailableError('down', 503)]);
    const history = await failing.condenser.condenseIfNeeded(big);
    expect(history).toHaveLength(12);
    expect(big.log.some((event) => event.kind === 'Condensation')).toBe(false);
  });

  it('a request with nothing to forget appends nothing', async () => {
    const session = new MemorySession(condenserAgent(), [system(), user('Hi.', 'u')]);
    const { condenser, provider } = condenserOf(session, []);
    expect(await condenser.condenseOnRequest(session)).toBe(false);
    expect(session.log).toHaveLength(2);
    expect(provider.requests).toEqual([]);
  });

  it('overlapping condensations run one after the other; the second finds the request handled', async () => {
    const session = new MemorySession(condenserAgent(), [...conversation(2)]);
    await session.append([{ kind: 'CondensationRequest', id: 'req', source: 'environment' }]);
    const { condenser, provider } = condenserOf(session, ['Once.']);
    await Promise.all([condenser.condenseIfNeeded(session), condenser.condenseIfNeeded(session)]);
    expect(provider.requests).toHaveLength(1);
    expect(session.log.filter((event) => event.kind === 'Condensation')).toHaveLength(1);
  });
});

describe('completeWithCondensation', () => {
  const contextError = () =>
    new LLMRequestError("LLM request rejected: 400: This model's maximum context length is 8192 tokens", 400);

  it('on a context-window error, requests a condensation and retries with the condensed view', async () => {
    const session = new MemorySession(condenserAgent(), conversation(3));
    const { condenser } = condenserOf(session, ['Condensed.']);
    const calls: Message[][] = [];
    const response = await completeWithCondensation({
      session,
      history: session.log,
      condenser,
      complete: async (messages) => {
        calls.push(messages);
        if (calls.length === 1) throw contextError();
        return { id: 'agent-1' } as never;
      },
    });
    expect(response).toEqual({ id: 'agent-1' });
    expect(calls[0]).toHaveLength(8);
    // The older half of the 6 events after the head would end inside c2, so only c1 is forgotten.
    expect(calls[1]?.map((m) => m.role)).toEqual(['system', 'user', 'user', 'assistant', 'tool', 'assistant', 'tool']);
    expect(calls[1]?.[3]?.tool_calls?.[0]?.id).toBe('c2');
    expect((calls[1]?.[2]?.content[0] as { text: string }).text).toBe('Condensed.');
    expect(session.log.slice(-2).map((event) => event.kind)).toEqual(['CondensationRequest', 'Condensation']);
    expect(session.current).toBe('running');
  });

  it('without a condenser, a context-window error ends the run in error with a clear code', async () => {
    const session = new MemorySession(agentWith(null), conversation(1));
    const response = await completeWithCondensation({
      session,
      history: session.log,
      condenser: undefined,
      complete: async () => {
        throw contextError();
      },
    });
    expect(response).toBeUndefined();
    expect(session.current).toBe('error');
    expect(session.log[session.log.length - 1]).toMatchObject({
      kind: 'ConversationErrorEvent',
      code: CONTEXT_WINDOW_CODE,
      detail: expect.stringContaining('no condenser'),
    });
  });

  it('gives up in error once nothing more can be forgotten', async () => {
    const session = new MemorySession(condenserAgent(), [system(), user('Huge.', 'u')]);
    const { condenser } = condenserOf(session, []);
    const response = await completeWithCondensation({
      session,
      history: session.log,
      condenser,
      complete: async () => {
        throw contextError();
      },
    });
    expect(response).toBeUndefined();
    expect(session.current).toBe('error');
    expect(session.log[session.log.length - 1]).toMatchObject({ code: CONTEXT_WINDOW_CODE });
  });

  it('other errors are not caught', async () => {
    const session = new MemorySession(condenserAgent(), conversation(1));
    const { condenser } = condenserOf(session, []);
    await expect(
      completeWithCondensation({
        session,
        history: session.log,
        condenser,
        complete: async () => {
          throw new LLMRequestError('LLM request rejected: 400: bad tool schema', 400);
        },
      }),
    ).rejects.toThrow('bad tool schema');
  });
});
