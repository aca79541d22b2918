import type { LLMConfig, Message, ReasoningItemModel } from '@bosun/protocol';
import { type AnswerEnvelope, type ParsedAnswer, usageOf } from './answer.ts';
import { LLMBadResponseError } from './errors.ts';
import { endpoint, messageImages, messageText, wireModel } from './message-text.ts';
import { type AnswerWire, requestAnswer } from './request-answer.ts';
import { ResponsesStreamAssembler } from './stream/responses-stream.ts';
import type { LLMCallObserver, LLMProvider, LLMRequest, LLMResponse } from './types.ts';

/** How the Responses API streams its answers and reads them. */
const WIRE: AnswerWire = {
  streamFields: { stream: true },
  assembler: () => new ResponsesStreamAssembler(),
  idPrefix: 'resp_',
  parse: parseAnswer,
};

/**
 * The OpenAI Responses API. Runs are stateless (`store: false`): reasoning items come back with their
 * `encrypted_content`, which is passed back on the next request and is never logged or shown.
 */
export class ResponsesProvider implements LLMProvider {
  constructor(readonly config: LLMConfig) {}

  async complete(
    request: LLMRequest,
    signal?: AbortSignal,
    retries?: AbortSignal,
    observer?: LLMCallObserver,
  ): Promise<LLMResponse> {
    const { config } = this;
    const system = request.messages.filter((m) => m.role === 'system').map(messageText);
    const body: Record<string, unknown> = {
      model: wireModel(config.model),
      ...(system.length ? { instructions: system.join('\n\n') } : {}),
      input: request.messages.filter((m) => m.role !== 'system').flatMap(toInputItems),
      ...(request.tools.length
        ? {
            tools: request.tools.map((tool) => ({
              type: 'function',
              name: tool.name,
              description: tool.description,
              parameters: tool.parameters,
            })),
          }
        : {}),
      store: false,
      ...(config.enable_encrypted_reasoning ? { include: ['reasoning.encrypted_content'] } : {}),
      ...(config.reasoning_effort
        ? { reasoning: { effort: config.reasoning_effort, summary: config.reasoning_summary ?? 'auto' } }
        : {}),
      ...(config.max_output_tokens != null ? { max_output_tokens: config.max_output_tokens } : {}),
      ...(config.temperature != null ? { temperature: config.temperature } : {}),
    };
    const headers: Record<string, string> = { ...((config.extra_headers as Record<string, string>) ?? {}) };
    if (config.api_key) headers.authorization = `Bearer ${config.api_key}`;
    const url = endpoint(config.base_url ?? 'https://api.openai.com/v1', 'responses');
    return requestAnswer(WIRE, { url, headers, body }, config, { signal, retries, observer });
  }
}

function toInputItems(message: Message): Record<string, unknown>[] {
  const text = messageText(message);
  if (message.role === 'tool') return [{ type: 'function_call_output', call_id: message.tool_call_id, output: text }];
  if (message.role === 'assistant') {
    const items: Record<string, unknown>[] = [];
    const reasoning = message.responses_reasoning_item;
    if (reasoning?.id) {
      items.push({
        type: 'reasoning',
        id: reasoning.id,
        summary: reasoning.summary.map((summary) => ({ type: 'summary_text', text: summary })),
        ...(reasoning.encrypted_content ? { encrypted_content: reasoning.encrypted_content } : {}),
      });
    }
    if (text) items.push({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] });
    for (const call of message.tool_calls ?? []) {
      items.push({ type: 'function_call', call_id: call.id, name: call.name, arguments: call.arguments });
    }
    return items;
  }
  return [
    {
      type: 'message',
      role: 'user',
      content: [
        ...(text ? [{ type: 'input_text', text }] : []),
        ...messageImages(message).map((url) => ({ type: 'input_image', image_url: url })),
      ],
    },
  ];
}

interface OutputItem {
  type: string;
  id?: string;
  status?: string;
  content?: { type: string; text?: string }[];
  summary?: { type: string; text: string }[];
  encrypted_content?: string | null;
  call_id?: string;
  name?: string;
  arguments?: string;
}

function parseAnswer(raw: unknown): ParsedAnswer {
  const answer = raw as AnswerEnvelope<{
    input_tokens?: number;
    output_tokens?: number;
    output_tokens_details?: { reasoning_tokens?: number };
    input_tokens_details?: { cached_tokens?: number };
  }> & { output?: OutputItem[] };
  if (!Array.isArray(answer.output)) throw new LLMBadResponseError('The Responses answer has no output list');
  const texts: string[] = [];
  const toolCalls: LLMResponse['toolCalls'] = [];
  let reasoning: ReasoningItemModel | null = null;
  for (const item of answer.output) {
    if (item.type === 'message') {
      for (const part of item.content ?? []) if (part.type === 'output_text' && part.text) texts.push(part.text);
    } else if (item.type === 'function_call') {
      toolCalls.push({ id: item.call_id ?? item.id ?? '', name: item.name ?? '', arguments: item.arguments ?? '' });
    } else if (item.type === 'reasoning') {
      reasoning = {
        id: item.id ?? null,
        summary: (item.summary ?? []).map((part) => part.text),
        content: item.content ? item.content.map((part) => part.text ?? '') : null,
        encrypted_content: item.encrypted_content ?? null,
        status: item.status ?? null,
      };
    }
  }
  return {
    content: texts.length ? texts.join('\n') : null,
    toolCalls,
    origin: 'responses',
    reasoningContent: reasoning?.summary.length ? reasoning.summary.join('\n') : null,
    responsesReasoningItem: reasoning,
    usage: usageOf({
      prompt_tokens: answer.usage?.input_tokens,
      completion_tokens: answer.usage?.output_tokens,
      reasoning_tokens: answer.usage?.output_tokens_details?.reasoning_tokens,
      cache_read_tokens: answer.usage?.input_tokens_details?.cached_tokens,
    }),
  };
}
