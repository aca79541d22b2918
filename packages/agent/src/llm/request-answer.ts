import type { LLMConfig } from '@bosun/protocol';
import { type ParsedAnswer, llmResponse } from './answer.ts';
import { postWithRetries } from './http.ts';
import type { StreamAssembler } from './stream/post-stream.ts';
import type { LLMCallObserver, LLMResponse } from './types.ts';

/** How one wire API streams its answers and reads them. */
export interface AnswerWire {
  /** What the request's body adds to ask for a streamed answer. */
  streamFields: Record<string, unknown>;
  /** Makes a streamed answer of this API whole again (a new one for each attempt). */
  assembler: () => StreamAssembler;
  /** Begins the id of an answer that has none. */
  idPrefix: string;
  parse: (body: unknown) => ParsedAnswer;
}

/** One request of a wire API. */
export interface AnswerRequest {
  url: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/** What a call is given besides its request: its cancellation, the end of its retrying, who follows it. */
export interface AnswerCall {
  signal?: AbortSignal | undefined;
  retries?: AbortSignal | undefined;
  observer?: LLMCallObserver | undefined;
}

/**
 * POSTs a wire API's request (with retries) and returns its answer as an LLMResponse. The answer is streamed
 * when someone follows the pieces (the observer's `delta`), unless the configuration's `stream: false` says the
 * server cannot; the exchange records the body as sent.
 */
export async function requestAnswer(
  wire: AnswerWire,
  request: AnswerRequest,
  config: LLMConfig,
  { signal, retries, observer }: AnswerCall,
): Promise<LLMResponse> {
  const streaming = observer?.delta !== undefined && config.stream !== false;
  const sent = streaming ? { ...request.body, ...wire.streamFields } : request.body;
  const answer = await postWithRetries(request.url, request.headers, sent, config, {
    signal,
    retries,
    observer,
    stream: streaming ? wire.assembler : undefined,
  });
  return llmResponse(answer, sent, wire.idPrefix, wire.parse(answer.body));
}
