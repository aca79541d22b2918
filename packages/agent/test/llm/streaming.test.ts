import { type LlmReplay, type Turn, startLlmReplay } from '@bosun/llm-replay';
import { LLMConfig, parse } from '@bosun/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { createProvider } from '../../src/llm/provider.ts';
import type { LLMAttemptFailure, LLMCallObserver, LLMDelta, LLMRequest, LLMResponse } from '../../src/llm/types.ts';

const MODELS = { chat_completions: 'test-model', responses: 'openai/responses/test-model', anthropic: 'claude-test' };
const REQUEST: LLMRequest = {
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'Go.', cache_prompt: false }] } as LLMRequest['messages'][0],
  ],
  tools: [{ name: 'terminal', description: 'Runs a command.', parameters: { type: 'object', properties: {} } }],
};
const ANSWER: Turn = {
  content: 'Listing the files of the workspace now.',
  reasoning: 'The user wants to see what is there.',
  tool_calls: [
    { name: 'terminal', arguments: { command: 'ls -la' }, id: 'call_one' },
    { name: 'terminal', arguments: { command: 'pwd' }, id: 'call_two' },
  ],
};

let llm: LlmReplay | undefined;
afterEach(async () => {
  await llm?.close();
  llm = undefined;
});

/** What an observer heard during one call. */
function recorder() {
  const deltas: LLMDelta[] = [];
  const failures: LLMAttemptFailure[] = [];
  const attempts: number[] = [];
  const observer: LLMCallObserver = {
    attemptStarted: (attempt) => attempts.push(attempt),
    delta: (delta) => deltas.push(delta),
    attemptFailed: (failure) => {
      failures.push(failure);
    },
  };
  const joined = (pick: (delta: LLMDelta) => string | undefined) => deltas.map((d) => pick(d) ?? '').join('');
  return { observer, deltas, failures, attempts, joined };
}

/** The answer without what differs between any two calls (ids, timing, the exchange). */
function essence(response: LLMResponse) {
  const { id: _id, latencyMs: _latency, exchange: _exchange, ...rest } = response;
  const reasoning = rest.responsesReasoningItem;
  return { ...rest, ...(reasoning ? { responsesReasoningItem: { ...reasoning, id: 'rs_' } } : {}) };
}

async function provider(model: string, turns: Turn[], extra: Record<string, unknown> = {}) {
  llm = await startLlmReplay({ script: { turns } });
  const base = model.startsWith('claude') ? llm.url : llm.baseUrl;
  return createProvider(
    parse(LLMConfig, { model, base_url: base, num_retries: 2, retry_min_wait: 0, retry_max_wait: 0, ...extra }),
  );
}

describe.each(Object.entries(MODELS))('streamed answers: %s', (api, model) => {
  it('asks for a stream, reports each piece, and assembles the same answer as unstreamed', async () => {
    const llmProvider = await provider(model, [ANSWER, ANSWER]);
    const heard = recorder();
    const streamed = await llmProvider.complete(REQUEST, undefined, undefined, heard.observer);
    const whole = await llmProvider.complete(REQUEST);

    expect(essence(streamed)).toEqual(essence(whole));
    expect(streamed.content).toBe(ANSWER.content);
    expect(streamed.toolCalls.map((call) => [call.id, call.name, JSON.parse(call.arguments)])).toEqual([
      ['call_one', 'terminal', { command: 'ls -la' }],
      ['call_two', 'terminal', { command: 'pwd' }],
    ]);
    expect(streamed.usage.completion_tokens).toBeGreaterThan(0);
    expect(streamed.id).not.toBe('');
    const [first, second] = llm?.requests() ?? [];
    expect((first?.body as { stream?: boolean }).stream).toBe(true);
    expect((second?.body as { stream?: boolean }).stream).toBeUndefined();
    if (api === 'chat_completions') {
      expect((first?.body as { stream_options?: unknown }).stream_options).toEqual({ include_usage: true });
    }

    expect(heard.deltas.filter((d) => d.text).length).toBeGreaterThan(1);
    expect(heard.joined((d) => d.text)).toBe(ANSWER.content);
    expect(heard.joined((d) => d.reasoning)).toBe(ANSWER.reasoning);
    const argumentsOf = (index: number) =>
      heard.deltas.map((d) => (d.toolCall?.index === index ? (d.toolCall.arguments ?? '') : '')).join('');
    expect(JSON.parse(argumentsOf(0))).toEqual({ command: 'ls -la' });
    expect(JSON.parse(argumentsOf(1))).toEqual({ command: 'pwd' });
    expect(heard.deltas.find((d) => d.toolCall?.index === 1 && d.toolCall.name)?.toolCall).toMatchObject({
      id: 'call_two',
      name: 'terminal',
    });
    expect(heard.attempts).toEqual([1]);
    expect(heard.failures).toEqual([]);
  });

  it('starts over when the stream breaks off midway, telling the observer the attempt failed', async () => {
    const llmProvider = await provider(model, [{ ...ANSWER, stream_cut_after: 8, stream_delay_ms: 1 }, ANSWER]);
    const heard = recorder();
    const response = await llmProvider.complete(REQUEST, undefined, undefined, heard.observer);
    expect(response.content).toBe(ANSWER.content);
    expect(response.toolCalls).toHaveLength(2);
    expect(heard.attempts).toEqual([1, 2]);
    expect(heard.failures).toHaveLength(1);
    expect(heard.failures[0]).toMatchObject({ attempt: 1, maxAttempts: 3, retryInSeconds: 0 });
    expect(heard.failures[0]?.error.name).toBe('LLMServiceUnavailableError');
    // The pieces of the first attempt came before its failure; what came after it is the whole answer again.
    expect(heard.joined((d) => d.text).endsWith(ANSWER.content as string)).toBe(true);
    expect(llm?.requests()).toHaveLength(2);
  });

  it('fails with the last error when every stream breaks off', async () => {
    const cut = { ...ANSWER, stream_cut_after: 3, times: 3 };
    const llmProvider = await provider(model, [cut]);
    const heard = recorder();
    await expect(llmProvider.complete(REQUEST, undefined, undefined, heard.observer)).rejects.toThrow(
      /ended before the answer was complete|broke off|terminated|other side closed/,
    );
    expect(heard.failures.map((f) => [f.attempt, f.retryInSeconds])).toEqual([
      [1, 0],
      [2, 0],
      [3, null],
    ]);
  });

  it('does not stream when the configuration says `stream: false`', async () => {
    const llmProvider = await provider(model, [ANSWER], { stream: false });
    const heard = recorder();
    const response = await llmProvider.complete(REQUEST, undefined, undefined, heard.observer);
    expect(response.content).toBe(ANSWER.content);
    expect(heard.deltas).toEqual([]);
    expect((llm?.requests()[0]?.body as { stream?: boolean }).stream).toBeUndefined();
  });
});
