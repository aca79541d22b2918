import type { AnyThinkingBlock, LLMConfig, Message, ReasoningItemModel } from '@bosun/protocol';

/** A function the LLM may call. */
export interface LLMTool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface LLMRequest {
  messages: Message[];
  tools: LLMTool[];
}

export interface LLMToolCall {
  id: string;
  name: string;
  /** The arguments as the LLM sent them: a JSON string (possibly malformed). */
  arguments: string;
}

export interface LLMUsage {
  prompt_tokens: number;
  completion_tokens: number;
  reasoning_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
}

/** One LLM answer, whatever the wire API. */
export interface LLMResponse {
  id: string;
  model: string;
  content: string | null;
  toolCalls: LLMToolCall[];
  /** Which wire API produced the tool calls (`MessageToolCall.origin`). */
  origin: 'completion' | 'responses';
  reasoningContent?: string | null;
  thinkingBlocks?: AnyThinkingBlock[];
  responsesReasoningItem?: ReasoningItemModel | null;
  usage: LLMUsage;
  tokenIds?: { prompt: number[]; response: number[] };
  latencyMs: number;
  /** The request and response bodies, for completion logs (secrets never included). */
  exchange: { request: unknown; response: unknown };
}

/** A piece of an answer as it streams: text, reasoning, or a piece of a tool call (its arguments' text). */
export interface LLMDelta {
  text?: string;
  reasoning?: string;
  /** `index` counts the answer's tool calls from 0; `id` and `name` come with the call's first piece. */
  toolCall?: { index: number; id?: string; name?: string; arguments?: string };
}

/** An attempt of an LLM call that failed; `retryInSeconds` is null when it was the last one. */
export interface LLMAttemptFailure {
  /** 1 for the first attempt. */
  attempt: number;
  /** `num_retries + 1`. */
  maxAttempts: number;
  error: Error;
  retryInSeconds: number | null;
}

/** Told what an LLM call does while it runs: its attempts, what each streams, and each failure. */
export interface LLMCallObserver {
  attemptStarted?(attempt: number): void;
  /** Given, the answer is asked for as a stream (unless the configuration's `stream` is false). */
  delta?(delta: LLMDelta): void;
  /** Awaited before the retry's backoff wait (or before the error is thrown). */
  attemptFailed?(failure: LLMAttemptFailure): void | Promise<void>;
}

/** Talks to one LLM through one wire API. */
export interface LLMProvider {
  readonly config: LLMConfig;
  /**
   * One answer. `signal` cancels the call at once; `retries` only stops retrying (a failed attempt is final, a
   * backoff wait ends), so an attempt in flight may still complete. `observer` hears of attempts, streamed
   * pieces and failures as they happen; the answer is the same with or without it.
   */
  complete(
    request: LLMRequest,
    signal?: AbortSignal,
    retries?: AbortSignal,
    observer?: LLMCallObserver,
  ): Promise<LLMResponse>;
}
