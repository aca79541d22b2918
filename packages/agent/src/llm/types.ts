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

/** Talks to one LLM through one wire API. */
export interface LLMProvider {
  readonly config: LLMConfig;
  /**
   * One answer. `signal` cancels the call at once; `retries` only stops retrying (a failed attempt is final, a
   * backoff wait ends), so an attempt in flight may still complete.
   */
  complete(request: LLMRequest, signal?: AbortSignal, retries?: AbortSignal): Promise<LLMResponse>;
}
