import type { LLMProvider, LLMRequest, LLMResponse } from '@bosun/agent';

/**
 * In-process LLM answers for unit tests of the agent library, which take an `LLMProvider`. End-to-end tests
 * use the scripted LLM server (llm-replay) over the real wire protocols instead.
 */

/** A completed response: `overrides` on a minimal one (no text, no tool calls, one token each way). */
export function llmResponse(id: string, overrides: Partial<LLMResponse> = {}): LLMResponse {
  return {
    id,
    model: 'test-model',
    content: null,
    toolCalls: [],
    origin: 'completion',
    usage: { prompt_tokens: 1, completion_tokens: 1, reasoning_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0 },
    latencyMs: 1,
    exchange: { request: {}, response: {} },
    ...overrides,
  };
}

/** A provider answering request `i` with `responses[i]` (ids `r1`, `r2`, ...); it records every request. */
export function scriptedProvider(
  responses: Partial<LLMResponse>[],
  config = { model: 'test-model' } as LLMProvider['config'],
): LLMProvider & { requests: LLMRequest[] } {
  const requests: LLMRequest[] = [];
  return {
    requests,
    config,
    async complete(request) {
      requests.push(request);
      const response = responses[requests.length - 1];
      if (!response) throw new Error('no more responses');
      return llmResponse(`r${requests.length}`, response);
    },
  };
}
