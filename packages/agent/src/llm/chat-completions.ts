import type { LLMConfig, Message } from '@bosun/protocol';
import { type AnswerEnvelope, type ParsedAnswer, usageOf } from './answer.ts';
import { LLMBadResponseError } from './errors.ts';
import { endpoint, messageImages, messageText, wireModel } from './message-text.ts';
import { type AnswerWire, requestAnswer } from './request-answer.ts';
import { ChatStreamAssembler } from './stream/chat-stream.ts';
import type { LLMCallObserver, LLMProvider, LLMRequest, LLMResponse } from './types.ts';

/** How Chat Completions streams its answers and reads them. */
const WIRE: AnswerWire = {
  streamFields: { stream: true, stream_options: { include_usage: true } },
  assembler: () => new ChatStreamAssembler(),
  idPrefix: 'chatcmpl-',
  parse: parseAnswer,
};

/** OpenAI Chat Completions, and every server that speaks it (LiteLLM, vLLM, Ollama, ...). */
export class ChatCompletionsProvider implements LLMProvider {
  constructor(readonly config: LLMConfig) {}

  async complete(
    request: LLMRequest,
    signal?: AbortSignal,
    retries?: AbortSignal,
    observer?: LLMCallObserver,
  ): Promise<LLMResponse> {
    const { config } = this;
    const body: Record<string, unknown> = {
      model: wireModel(config.model),
      messages: request.messages.map(toWireMessage),
      ...(request.tools.length
        ? {
            tools: request.tools.map((tool) => ({
              type: 'function',
              function: { name: tool.name, description: tool.description, parameters: tool.parameters },
            })),
          }
        : {}),
      ...(config.temperature != null ? { temperature: config.temperature } : {}),
      ...(config.top_p != null ? { top_p: config.top_p } : {}),
      ...(config.max_output_tokens != null ? { max_completion_tokens: config.max_output_tokens } : {}),
      ...(config.seed != null ? { seed: config.seed } : {}),
      ...(config.reasoning_effort ? { reasoning_effort: config.reasoning_effort } : {}),
      ...(config.litellm_extra_body ?? {}),
    };
    const headers: Record<string, string> = { ...((config.extra_headers as Record<string, string>) ?? {}) };
    if (config.api_key) headers.authorization = `Bearer ${config.api_key}`;
    const url = endpoint(config.base_url ?? 'https://api.openai.com/v1', 'chat/completions');
    return requestAnswer(WIRE, { url, headers, body }, config, { signal, retries, observer });
  }
}

function toWireMessage(message: Message): Record<string, unknown> {
  const text = messageText(message);
  const images = messageImages(message);
  switch (message.role) {
    case 'assistant':
      return {
        role: 'assistant',
        content: text || null,
        ...(message.tool_calls?.length
          ? {
              tool_calls: message.tool_calls.map((call) => ({
                id: call.id,
                type: 'function',
                function: { name: call.name, arguments: call.arguments },
              })),
            }
          : {}),
      };
    case 'tool':
      return { role: 'tool', tool_call_id: message.tool_call_id, content: text };
    default:
      return {
        role: message.role,
        content: images.length
          ? [
              ...(text ? [{ type: 'text', text }] : []),
              ...images.map((url) => ({ type: 'image_url', image_url: { url } })),
            ]
          : text,
      };
  }
}

interface WireAnswer
  extends AnswerEnvelope<{
    prompt_tokens?: number;
    completion_tokens?: number;
    completion_tokens_details?: { reasoning_tokens?: number };
    prompt_tokens_details?: { cached_tokens?: number };
  }> {
  prompt_token_ids?: number[];
  choices?: {
    message?: {
      content?: string | null;
      reasoning_content?: string | null;
      tool_calls?: { id: string; function: { name: string; arguments: string } }[];
    };
    token_ids?: number[];
  }[];
}

function parseAnswer(raw: unknown): ParsedAnswer {
  const answer = raw as WireAnswer;
  const choice = answer.choices?.[0];
  if (!choice?.message) throw new LLMBadResponseError('The LLM answer has no choices[0].message');
  const { message } = choice;
  const tokenIds =
    answer.prompt_token_ids && choice.token_ids
      ? { prompt: answer.prompt_token_ids, response: choice.token_ids }
      : undefined;
  return {
    content: message.content ?? null,
    toolCalls: (message.tool_calls ?? []).map((call) => ({
      id: call.id,
      name: call.function?.name ?? '',
      arguments: call.function?.arguments ?? '',
    })),
    origin: 'completion',
    reasoningContent: message.reasoning_content ?? null,
    usage: usageOf({
      prompt_tokens: answer.usage?.prompt_tokens,
      completion_tokens: answer.usage?.completion_tokens,
      reasoning_tokens: answer.usage?.completion_tokens_details?.reasoning_tokens,
      cache_read_tokens: answer.usage?.prompt_tokens_details?.cached_tokens,
    }),
    ...(tokenIds ? { tokenIds } : {}),
  };
}
