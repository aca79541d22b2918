import type { LLMConfig } from '@bosun/protocol';
import { type ParsedAnswer, llmResponse } from './answer.ts';
import { postWithRetries } from './http.ts';
import type { StreamAssembler } from './stream/post-stream.ts';
import type { LLMCallObserver, LLMResponse } from './types.ts';

/** How one wire API asks for an answer and reads it. */
export interface AnswerRequest {
  url: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
  /** What the body adds to ask for a streamed answer. */
  streamFields: Record<string, unknown>;
  /** Makes a streamed answer of this API whole again (a new one for each attempt). */
  assembler: () => StreamAssembler;
  /** Begins the id of an answer that has none. */
  idPrefix: string;
  parse: (body: unknown) => ParsedAnswer;
}

/**
 * POSTs a wire API's request (with retries) and returns its answer as an LLMResponse. The answer is streamed
 * when someone follows the pieces (the observer's `delta`), unless the configuration's `stream: false` says the
 * server cannot; the exchange records the body as sent.
 */
export async function requestAnswer(
  request: AnswerRequest,
  config: LLMConfig,
  signal: AbortSignal | undefined,
  retries: AbortSignal | undefined,
  observer: LLMCallObserver | undefined,
): Promise<LLMResponse> {
  const streaming = observer?.delta !== undefined && config.stream !== false;
  const sent = streaming ? { ...request.body, ...request.streamFields } : request.body;
  const answer = await postWithRetries(request.url, request.headers, sent, config, {
    signal,
    retries,
    observer,
    stream: streaming ? request.assembler : undefined,
  });
  return llmResponse(answer, sent, request.idPrefix, request.parse(answer.body));
}
