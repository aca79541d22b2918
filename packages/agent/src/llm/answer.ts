import type { JsonExchange } from './http.ts';
import type { LLMResponse, LLMUsage } from './types.ts';

/** What every wire API's answer carries besides its content: its id, its model and its token counts. */
export interface AnswerEnvelope<Usage> {
  id?: string;
  model?: string;
  usage?: Usage;
}

/** What a wire API's answer says, parsed: all of an LLMResponse but what every answer has alike. */
export type ParsedAnswer = Omit<LLMResponse, 'id' | 'model' | 'latencyMs' | 'exchange'>;

/** The token counts an answer reports, 0 for each it does not. */
export function usageOf(counts: { [K in keyof LLMUsage]?: number | undefined }): LLMUsage {
  return {
    prompt_tokens: counts.prompt_tokens ?? 0,
    completion_tokens: counts.completion_tokens ?? 0,
    reasoning_tokens: counts.reasoning_tokens ?? 0,
    cache_read_tokens: counts.cache_read_tokens ?? 0,
    cache_write_tokens: counts.cache_write_tokens ?? 0,
  };
}

/** The LLMResponse of an answer to `request`; one without an id gets `idPrefix` and the time. */
export function llmResponse(
  exchange: JsonExchange,
  request: unknown,
  idPrefix: string,
  parsed: ParsedAnswer,
): LLMResponse {
  const answer = exchange.body as AnswerEnvelope<unknown>;
  return {
    id: answer.id ?? `${idPrefix}${Date.now()}`,
    model: answer.model ?? '',
    ...parsed,
    latencyMs: exchange.latencyMs,
    exchange: { request, response: exchange.body },
  };
}
