import type { AnyThinkingBlock, LLMConfig, Message } from '@bosun/protocol';
import { type AnswerEnvelope, type ParsedAnswer, usageOf } from './answer.ts';
import { LLMBadResponseError } from './errors.ts';
import { endpoint, messageImages, messageText, wireModel } from './message-text.ts';
import { type AnswerWire, requestAnswer } from './request-answer.ts';
import { AnthropicStreamAssembler } from './stream/anthropic-stream.ts';
import type { LLMCallObserver, LLMProvider, LLMRequest, LLMResponse } from './types.ts';

const ANTHROPIC_VERSION = '2023-06-01';
const DEFAULT_MAX_TOKENS = 8192;

type Block = Record<string, unknown>;
interface WireMessage {
  role: 'user' | 'assistant';
  content: Block[];
}

/** How the Messages API streams its answers and reads them. */
const WIRE: AnswerWire = {
  streamFields: { stream: true },
  assembler: () => new AnthropicStreamAssembler(),
  idPrefix: 'msg_',
  parse: parseAnswer,
};

/** The Anthropic Messages API, with thinking and redacted thinking blocks passed back with their signatures. */
export class AnthropicProvider implements LLMProvider {
  constructor(readonly config: LLMConfig) {}

  async complete(
    request: LLMRequest,
    signal?: AbortSignal,
    retries?: AbortSignal,
    observer?: LLMCallObserver,
  ): Promise<LLMResponse> {
    const { config } = this;
    const system = request.messages.filter((m) => m.role === 'system').map(messageText);
    const thinking = config.extended_thinking_budget
      ? { thinking: { type: 'enabled', budget_tokens: config.extended_thinking_budget } }
      : {};
    const maxTokens = Math.max(
      config.max_output_tokens ?? DEFAULT_MAX_TOKENS,
      (config.extended_thinking_budget ?? 0) + 1024,
    );
    const body: Record<string, unknown> = {
      model: wireModel(config.model),
      max_tokens: maxTokens,
      ...(system.length ? { system: system.join('\n\n') } : {}),
      messages: toWireMessages(request.messages.filter((m) => m.role !== 'system')),
      ...(request.tools.length
        ? {
            tools: request.tools.map((tool) => ({
              name: tool.name,
              description: tool.description,
              input_schema: tool.parameters,
            })),
          }
        : {}),
      ...thinking,
      ...(config.temperature != null && !config.extended_thinking_budget ? { temperature: config.temperature } : {}),
    };
    const headers: Record<string, string> = {
      'anthropic-version': ANTHROPIC_VERSION,
      ...((config.extra_headers as Record<string, string>) ?? {}),
    };
    if (config.api_key) headers['x-api-key'] = config.api_key;
    const base = config.base_url ?? 'https://api.anthropic.com';
    const url = endpoint(base, /\/v1\/?$/.test(base) ? 'messages' : 'v1/messages');
    return requestAnswer(WIRE, { url, headers, body }, config, { signal, retries, observer });
  }
}

/** Anthropic wants strictly alternating turns; tool results travel as `tool_result` blocks of a user turn. */
function toWireMessages(messages: Message[]): WireMessage[] {
  const wire: WireMessage[] = [];
  const push = (role: WireMessage['role'], blocks: Block[]) => {
    const last = wire[wire.length - 1];
    if (last?.role === role) last.content.push(...blocks);
    else wire.push({ role, content: blocks });
  };
  for (const message of messages) {
    const text = messageText(message);
    if (message.role === 'tool') {
      push('user', [{ type: 'tool_result', tool_use_id: message.tool_call_id, content: text || '(no output)' }]);
    } else if (message.role === 'assistant') {
      const blocks: Block[] = message.thinking_blocks.map((block) =>
        block.type === 'thinking'
          ? { type: 'thinking', thinking: block.thinking, signature: block.signature ?? '' }
          : { type: 'redacted_thinking', data: block.data },
      );
      if (text) blocks.push({ type: 'text', text });
      for (const call of message.tool_calls ?? []) {
        blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: parseInput(call.arguments) });
      }
      push('assistant', blocks.length ? blocks : [{ type: 'text', text: '(empty)' }]);
    } else {
      push('user', [...(text ? [{ type: 'text', text }] : []), ...messageImages(message).map(imageBlock)]);
    }
  }
  return wire;
}

function parseInput(args: string): unknown {
  try {
    const value = JSON.parse(args);
    return value && typeof value === 'object' && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

function imageBlock(url: string): Block {
  const data = /^data:([^;]+);base64,(.*)$/.exec(url);
  if (data) return { type: 'image', source: { type: 'base64', media_type: data[1], data: data[2] } };
  return { type: 'image', source: { type: 'url', url } };
}

function parseAnswer(raw: unknown): ParsedAnswer {
  const answer = raw as AnswerEnvelope<{
    input_tokens?: number;
    output_tokens?: number;
    cache_read_input_tokens?: number;
    cache_creation_input_tokens?: number;
  }> & { content?: Block[] };
  if (!Array.isArray(answer.content)) throw new LLMBadResponseError('The Anthropic answer has no content list');
  const texts: string[] = [];
  const toolCalls: LLMResponse['toolCalls'] = [];
  const thinkingBlocks: AnyThinkingBlock[] = [];
  for (const block of answer.content) {
    if (block.type === 'text') texts.push(String(block.text ?? ''));
    else if (block.type === 'tool_use') {
      toolCalls.push({ id: String(block.id), name: String(block.name), arguments: JSON.stringify(block.input ?? {}) });
    } else if (block.type === 'thinking') {
      thinkingBlocks.push({
        type: 'thinking',
        thinking: String(block.thinking ?? ''),
        signature: (block.signature as string | undefined) ?? null,
      });
    } else if (block.type === 'redacted_thinking') {
      thinkingBlocks.push({ type: 'redacted_thinking', data: String(block.data ?? '') });
    }
  }
  return {
    content: texts.length ? texts.join('\n') : null,
    toolCalls,
    origin: 'completion',
    reasoningContent: null,
    thinkingBlocks,
    usage: usageOf({
      prompt_tokens: answer.usage?.input_tokens,
      completion_tokens: answer.usage?.output_tokens,
      cache_read_tokens: answer.usage?.cache_read_input_tokens,
      cache_write_tokens: answer.usage?.cache_creation_input_tokens,
    }),
  };
}
