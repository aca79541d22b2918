import type { LlmReplay, RecordedRequest } from '@bosun/llm-replay';
import { describe, expect, it } from 'vitest';
import { type E2EServer, type EventBody, actionsOf, ofKind, recordedRequests, startStack } from './support.ts';

/** How llm-replay tells the condenser's summary requests from the agent's steps. */
const SUMMARIZE = { last_user_message_contains: 'Summarize the following events' };
const THOUGHT_LOGGED = 'Your thought has been logged.';

type ChatMessage = {
  role: string;
  content: string | null;
  tool_calls?: { id: string; type: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
};
type ChatBody = { messages: ChatMessage[]; tools?: unknown[] };
type CondensationBody = EventBody & {
  forgotten_event_ids: string[];
  summary: string;
  summary_offset: number;
  llm_response_id: string;
};

const think = (n: string) => ({
  tool_calls: [{ name: 'think', id: `call_${n}`, arguments: { thought: `thought ${n}` } }],
});
const finish = { tool_calls: [{ name: 'finish', id: 'call_finish', arguments: { message: 'Finished.' } }] };
const summaryTurn = (summary: string) => ({ when: SUMMARIZE, content: summary });

/** The assistant message of a think call and its result, as the Chat Completions API carries them. */
const thinkPair = (n: string): ChatMessage[] => [
  {
    role: 'assistant',
    content: null,
    tool_calls: [
      {
        id: `call_${n}`,
        type: 'function',
        function: { name: 'think', arguments: JSON.stringify({ thought: `thought ${n}` }) },
      },
    ],
  },
  { role: 'tool', tool_call_id: `call_${n}`, content: THOUGHT_LOGGED },
];

/** The think calls `names` with their results, in order. */
const thinkPairs = (...names: string[]): ChatMessage[] => names.flatMap(thinkPair);
/** The messages every request starts with (the system prompt of the `first` request, the user's 'Go.'), then `rest`. */
const withHead = (first: ChatMessage[], ...rest: ChatMessage[]) => [
  first[0],
  { role: 'user', content: 'Go.' },
  ...rest,
];
const summary = (content: string): ChatMessage => ({ role: 'user', content });

const messagesOf = (request: RecordedRequest | undefined) => (request?.body as ChatBody).messages;
const isSummaryRequest = (request: RecordedRequest) =>
  messagesOf(request).at(-1)?.content?.startsWith('Summarize the following events') ?? false;

const condenser = (extra: Record<string, unknown> = {}) => ({
  condenser: { kind: 'LLMSummarizingCondenser', keep_first: 2, ...extra },
});

async function startWithCondenser(server: E2EServer, llm: LlmReplay, message: string, extra: Record<string, unknown>) {
  const reply = await server.api<{ id: string }>('POST', '/api/conversations', {
    agent: {
      llm: { model: 'test-model', base_url: llm.baseUrl, api_key: 'k', num_retries: 0, timeout: 20 },
      tools: [],
      ...extra,
    },
    workspace: { working_dir: server.workspace },
    initial_message: { role: 'user', content: [{ type: 'text', text: message }] },
  });
  expect(reply.status, reply.text).toBe(201);
  return reply.body;
}

/** The ids of the ActionEvents and results of the think calls `names`. */
function idsOfCalls(events: EventBody[], ...names: string[]): string[] {
  return names.flatMap((name) => {
    const action = actionsOf(events).find((a) => a.tool_call_id === `call_${name}`);
    const result = events.find((e) => e.kind === 'ObservationEvent' && e.tool_call_id === `call_${name}`);
    return [action?.id as string, result?.id as string];
  });
}

describe('condensation', () => {
  it('condenses by size: the next request holds the head, the summary, then the kept tail; no event is lost', async () => {
    const { server, llm } = await startStack({
      turns: [think('t1'), think('t2'), think('t3'), think('t4'), summaryTurn('SUMMARY-1: did t1 to t3.'), finish],
    });
    const created = await startWithCondenser(server, llm, 'Go.', condenser({ max_size: 8 }));
    await server.waitForStatus(created.id, 'finished');

    const requests = await recordedRequests(llm);
    expect(requests.map((r) => r.turn_index)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(requests.map(isSummaryRequest)).toEqual([false, false, false, false, true, false]);

    // The summary request: one user message with the forgotten events (t1..t3) as text, no tools.
    const summaryRequest = requests[4]?.body as ChatBody;
    expect(summaryRequest.tools).toBeUndefined();
    expect(summaryRequest.messages.map((m) => m.role)).toEqual(['user']);
    const prompt = summaryRequest.messages[0]?.content as string;
    for (const n of ['t1', 't2', 't3']) expect(prompt).toContain(`think({"thought":"thought ${n}"})`);
    expect(prompt).not.toContain('thought t4');

    // The agent's next request: exactly system, first user message, summary, then t4's call and result.
    const first = messagesOf(requests[0]);
    const after = messagesOf(requests[5]);
    expect(after).toEqual(withHead(first, summary('SUMMARY-1: did t1 to t3.'), ...thinkPair('t4')));
    // Before, the LLM saw everything.
    expect(messagesOf(requests[3])).toEqual(withHead(first, ...thinkPairs('t1', 't2', 't3')));

    const events = await server.allEvents(created.id);
    const [condensation, ...others] = ofKind<CondensationBody>(events, 'Condensation');
    expect(others).toEqual([]);
    expect(condensation).toMatchObject({
      source: 'environment',
      forgotten_event_ids: idsOfCalls(events, 't1', 't2', 't3'),
      summary: 'SUMMARY-1: did t1 to t3.',
      summary_offset: 2,
    });
    // The forgotten events are still in the log; the condensation came after t4's result.
    for (const id of condensation?.forgotten_event_ids ?? []) expect(events.map((e) => e.id)).toContain(id);
    const [, t4Result] = idsOfCalls(events, 't4');
    expect(events.findIndex((e) => e.id === condensation?.id)).toBeGreaterThan(
      events.findIndex((e) => e.id === t4Result),
    );
    // Usage of the summary call is kept under the condenser's usage id, with its response id.
    const info = await server.conversation(created.id);
    const usage = (info.stats as { usage_to_metrics: Record<string, { accumulated_token_usage: unknown }> })
      .usage_to_metrics;
    expect(Object.keys(usage).sort()).toEqual(['condenser', 'default']);
    expect(usage.condenser?.accumulated_token_usage).toMatchObject({ response_id: condensation?.llm_response_id });
    expect(condensation?.llm_response_id).toMatch(/^chatcmpl-/);
  });

  it('condenses again later: the second summary takes in the first and replaces it in the view', async () => {
    const { server, llm } = await startStack({
      turns: [
        think('t1'),
        think('t2'),
        think('t3'),
        think('t4'),
        summaryTurn('SUMMARY-1'),
        think('t5'),
        think('t6'),
        summaryTurn('SUMMARY-2'),
        finish,
      ],
    });
    const created = await startWithCondenser(server, llm, 'Go.', condenser({ max_size: 8 }));
    await server.waitForStatus(created.id, 'finished');

    const requests = await recordedRequests(llm);
    expect(requests.map(isSummaryRequest)).toEqual([false, false, false, false, true, false, false, true, false]);
    const first = messagesOf(requests[0]);
    expect(messagesOf(requests[5])).toEqual(withHead(first, summary('SUMMARY-1'), ...thinkPair('t4')));
    expect(messagesOf(requests[6])).toEqual(withHead(first, summary('SUMMARY-1'), ...thinkPairs('t4', 't5')));
    const secondPrompt = messagesOf(requests[7])[0]?.content as string;
    expect(secondPrompt).toContain('<PREVIOUS SUMMARY>\nSUMMARY-1\n</PREVIOUS SUMMARY>');
    expect(secondPrompt).toContain('thought t5');
    expect(secondPrompt).not.toContain('thought t6');
    expect(messagesOf(requests[8])).toEqual(withHead(first, summary('SUMMARY-2'), ...thinkPair('t6')));

    const events = await server.allEvents(created.id);
    const [one, two] = ofKind<CondensationBody>(events, 'Condensation');
    expect(two?.forgotten_event_ids).toEqual([`${one?.id}-summary`, ...idsOfCalls(events, 't4', 't5')]);
    expect(two).toMatchObject({ summary: 'SUMMARY-2', summary_offset: 2 });
    // All six calls, their results and both condensations are in the log.
    expect(idsOfCalls(events, 't1', 't2', 't3', 't4', 't5', 't6').every(Boolean)).toBe(true);
  });

  it('condenses on POST /condense; the next run sees the condensed view; the log only grows', async () => {
    const { server, llm } = await startStack({
      turns: [think('t1'), think('t2'), think('t3'), { content: 'Done.' }],
    });
    const created = await startWithCondenser(server, llm, 'Go.', condenser({ max_size: 100 }));
    await server.waitForStatus(created.id, 'finished');
    const before = await server.allEvents(created.id);

    llm.setScript({ turns: [summaryTurn('SUMMARY-2: did t1 and t2.'), { content: 'Still done.' }] });
    const condense = await server.api('POST', `/api/conversations/${created.id}/condense`);
    expect(condense.status, condense.text).toBe(200);
    expect(condense.body).toEqual({ success: true });

    // Synchronous: the condensation is in the log when the request returns, after everything that was there.
    const afterCondense = await server.allEvents(created.id);
    expect(afterCondense.slice(0, before.length)).toEqual(before);
    expect(afterCondense.slice(before.length).map((e) => [e.kind, e.key ?? null])).toEqual([
      ['CondensationRequest', null],
      ['ConversationStateUpdateEvent', 'stats'],
      ['Condensation', null],
    ]);
    // The older half of the 7 events after the head: t1 and t2 (t3 and the answer stay).
    expect(afterCondense.at(-1)).toMatchObject({
      kind: 'Condensation',
      forgotten_event_ids: idsOfCalls(before, 't1', 't2'),
      summary: 'SUMMARY-2: did t1 and t2.',
      summary_offset: 2,
    });
    expect((await server.conversation(created.id)).execution_status).toBe('finished');

    await server.sendMessage(created.id, 'Anything else?');
    await server.waitForStatus(created.id, 'finished');

    const requests = await recordedRequests(llm);
    expect(requests.map(isSummaryRequest)).toEqual([false, false, false, false, true, false]);
    const first = messagesOf(requests[0]);
    expect(messagesOf(requests[5])).toEqual(
      withHead(
        first,
        summary('SUMMARY-2: did t1 and t2.'),
        ...thinkPair('t3'),
        { role: 'assistant', content: 'Done.' },
        { role: 'user', content: 'Anything else?' },
      ),
    );
    const final = await server.allEvents(created.id);
    expect(final.slice(0, afterCondense.length)).toEqual(afterCondense);
  });

  it('POST /condense: 404, 409 without a condenser or with nothing to forget, 422, 502 if the LLM fails', async () => {
    const { server, llm } = await startStack({
      turns: [{ content: 'Hi.' }, { content: 'Hi again.' }, { content: '3' }],
    });
    const plain = await server.startConversation(llm, { message: 'Hello.' });
    await server.waitForStatus(plain.id, 'finished');
    const small = await startWithCondenser(server, llm, 'Hello.', condenser({ max_size: 100, keep_first: 4 }));
    await server.waitForStatus(small.id, 'finished');
    const eventsBefore = await server.allEvents(small.id);

    const unknown = await server.api('POST', '/api/conversations/00000000-0000-4000-8000-000000000000/condense');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: expect.stringContaining('not found') });

    const none = await server.api<{ detail: string }>('POST', `/api/conversations/${plain.id}/condense`);
    expect(none.status, none.text).toBe(409);
    expect(none.body.detail).toMatch(/no condenser.*agent\.condenser/);

    const nothing = await server.api<{ detail: string }>('POST', `/api/conversations/${small.id}/condense`);
    expect(nothing.status, nothing.text).toBe(409);
    expect(nothing.body.detail).toMatch(/^Nothing to condense/);
    expect(await server.allEvents(small.id)).toEqual(eventsBefore);

    const bad = await server.api('POST', '/api/conversations/not-a-uuid/condense');
    expect(bad.status).toBe(422);
    expect((await recordedRequests(llm)).filter(isSummaryRequest)).toEqual([]);

    // keep_first 2 leaves the agent's answer to forget, but the script has no summary turn: the LLM fails.
    const failing = await startWithCondenser(server, llm, 'Hello.', condenser({ max_size: 100 }));
    await server.waitForStatus(failing.id, 'finished');
    const failed = await server.api<{ detail: string }>('POST', `/api/conversations/${failing.id}/condense`);
    expect(failed.status, failed.text).toBe(502);
    expect(failed.body.detail).toMatch(/^The condenser's LLM call failed: .*no scripted turn matched/);
    expect((await recordedRequests(llm)).filter(isSummaryRequest)).toHaveLength(1);
    // The request stays pending: the next step condenses before calling the agent's LLM.
    expect((await server.allEvents(failing.id)).at(-1)?.kind).toBe('CondensationRequest');
  });

  it('rejects a condenser whose keep_first leaves no room (422), and redacts its LLM key', async () => {
    const { server, llm } = await startStack({ turns: [] });
    const agent = { llm: { model: 'test-model', base_url: llm.baseUrl }, tools: [] };
    const invalid = await server.api<{ detail: { loc: unknown[]; msg: string }[] }>('POST', '/api/conversations', {
      agent: { ...agent, condenser: { kind: 'LLMSummarizingCondenser', max_size: 8, keep_first: 3 } },
      workspace: { working_dir: server.workspace },
    });
    expect(invalid.status, invalid.text).toBe(422);
    expect(invalid.body.detail).toEqual([
      expect.objectContaining({ loc: ['body', 'agent', 'condenser', 'keep_first'] }),
    ]);
    const unknownField = await server.api('POST', '/api/conversations', {
      agent: { ...agent, condenser: { kind: 'LLMSummarizingCondenser', max_events: 8 } },
      workspace: { working_dir: server.workspace },
    });
    expect(unknownField.status, unknownField.text).toBe(422);

    const created = await server.api<{ agent: { condenser: Record<string, unknown> } }>('POST', '/api/conversations', {
      agent: {
        ...agent,
        condenser: { kind: 'LLMSummarizingCondenser', llm: { model: 'small', api_key: 'condenser-secret' } },
      },
      workspace: { working_dir: server.workspace },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.agent.condenser).toMatchObject({
      kind: 'LLMSummarizingCondenser',
      max_size: 120,
      keep_first: 4,
      llm: { model: 'small', api_key: '**********' },
    });
    expect(server.bodies.join('\n')).not.toContain('condenser-secret');
  });

  it('on a context-window error, condenses and retries the step with the condensed view', async () => {
    const contextError = {
      error: {
        status: 400,
        body: {
          error: {
            message:
              "This model's maximum context length is 1000 tokens. However, your messages resulted in 4000 tokens.",
            type: 'invalid_request_error',
            param: 'messages',
            code: 'context_length_exceeded',
          },
        },
      },
    };
    const { server, llm } = await startStack({
      turns: [think('t1'), think('t2'), think('t3'), contextError, summaryTurn('SUMMARY-3: did t1.'), finish],
    });
    const created = await startWithCondenser(server, llm, 'Go.', condenser({ max_size: 100 }));
    await server.waitForStatus(created.id, 'finished');

    const requests = await recordedRequests(llm);
    expect(requests.map((r) => r.turn_index)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(requests.map(isSummaryRequest)).toEqual([false, false, false, false, true, false]);
    const first = messagesOf(requests[0]);
    // The rejected request had everything; the retry has the head, the summary and the newer half.
    expect(messagesOf(requests[3])).toEqual(withHead(first, ...thinkPairs('t1', 't2', 't3')));
    expect(messagesOf(requests[5])).toEqual(withHead(first, summary('SUMMARY-3: did t1.'), ...thinkPairs('t2', 't3')));

    const events = await server.allEvents(created.id);
    expect(ofKind(events, 'ConversationErrorEvent')).toEqual([]);
    const kinds = events.map((e) => e.kind);
    const requestAt = kinds.indexOf('CondensationRequest');
    expect(requestAt).toBeGreaterThan(events.findIndex((e) => e.tool_call_id === 'call_t3'));
    expect(kinds.indexOf('Condensation')).toBeGreaterThan(requestAt);
    expect(ofKind(events, 'Condensation')[0]).toMatchObject({
      forgotten_event_ids: idsOfCalls(events, 't1'),
      summary: 'SUMMARY-3: did t1.',
      summary_offset: 2,
    });
    // Every event of the run is still in the log.
    expect(idsOfCalls(events, 't1', 't2', 't3', 'finish').every(Boolean)).toBe(true);
  });

  it('without a condenser, a context-window error ends the run in error with code LLMContextWindowExceedError', async () => {
    const { server, llm } = await startStack({
      turns: [
        think('t1'),
        { error: { status: 400, body: { error: { message: "This model's maximum context length is 10 tokens." } } } },
      ],
    });
    const created = await startWithCondenser(server, llm, 'Go.', {});
    await server.waitForStatus(created.id, 'error');
    const [error] = ofKind<EventBody & { code: string; detail: string }>(
      await server.allEvents(created.id),
      'ConversationErrorEvent',
    );
    expect(error).toMatchObject({ code: 'LLMContextWindowExceedError' });
    expect(error?.detail).toContain('no condenser');
    expect(error?.detail).toContain('maximum context length');
    expect(await recordedRequests(llm)).toHaveLength(2);
  });
});
