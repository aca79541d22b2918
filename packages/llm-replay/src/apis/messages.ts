import { type Answer, type Body, asArray, asRecord, contentText, lastPicked } from '../answer.ts';
import { ids, splitFixed, splitWords } from '../ids.ts';
import { type ApiAdapter, type SseEvent, jsonEvent } from './adapter.ts';

type Block = Record<string, unknown>;

const STOP_REASONS = { stop: 'end_turn', tool_calls: 'tool_use', length: 'max_tokens' } as const;

function lastUserText(body: Body): string | undefined {
  return lastPicked(body.messages, (message) => (message.role === 'user' ? contentText(message.content) : undefined));
}

function lastToolResultText(body: Body): string | undefined {
  return lastPicked(body.messages, (message) => {
    const results = asArray(message.content)
      .map(asRecord)
      .filter((block) => block.type === 'tool_result');
    const last = results[results.length - 1];
    return last ? (contentText(last.content) ?? '') : undefined;
  });
}

function contentBlocks(answer: Answer): Block[] {
  const blocks: Block[] = [];
  if (answer.reasoning !== undefined) {
    blocks.push({ type: 'thinking', thinking: answer.reasoning, signature: answer.signature });
  }
  if (answer.redactedReasoning !== undefined)
    blocks.push({ type: 'redacted_thinking', data: answer.redactedReasoning });
  if (answer.content !== null) blocks.push({ type: 'text', text: answer.content });
  for (const call of answer.toolCalls) {
    blocks.push({ type: 'tool_use', id: call.id ?? ids.anthropicToolUse(), name: call.name, input: call.input });
  }
  return blocks;
}

function usage(answer: Answer) {
  return {
    input_tokens: answer.usage.prompt,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: answer.usage.cached,
    output_tokens: answer.usage.completion,
  };
}

/** The content_block_start payload and the deltas that complete it. */
function blockEvents(block: Block, argumentsText: string | undefined): [Block, Block[]] {
  switch (block.type) {
    case 'thinking': {
      const deltas: Block[] = splitWords(String(block.thinking)).map((thinking) => ({
        type: 'thinking_delta',
        thinking,
      }));
      deltas.push({ type: 'signature_delta', signature: block.signature });
      return [{ type: 'thinking', thinking: '', signature: '' }, deltas];
    }
    case 'text':
      return [{ type: 'text', text: '' }, splitWords(String(block.text)).map((text) => ({ type: 'text_delta', text }))];
    case 'tool_use': {
      const json = argumentsText ?? JSON.stringify(block.input);
      const pieces = ['', ...splitFixed(json)].map((partial_json) => ({ type: 'input_json_delta', partial_json }));
      return [{ ...block, input: {} }, pieces];
    }
    default:
      return [block, []];
  }
}

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

export const messages: ApiAdapter = {
  name: 'messages',
  lastUserText,
  lastToolResultText,
  promptText: (body) => JSON.stringify([body.system ?? '', body.messages ?? []]),
  isStream: (body) => body.stream === true,

  render(answer) {
    return {
      id: ids.anthropicMessage(),
      type: 'message',
      role: 'assistant',
      model: answer.model,
      content: contentBlocks(answer),
      stop_reason: STOP_REASONS[answer.finishReason],
      stop_sequence: null,
      usage: usage(answer),
    };
  },

  renderStream(answer) {
    const events: SseEvent[] = [];
    const emit = (payload: Record<string, unknown>) => events.push(jsonEvent(payload));
    emit({
      type: 'message_start',
      message: {
        id: ids.anthropicMessage(),
        type: 'message',
        role: 'assistant',
        model: answer.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usage(answer), output_tokens: 1 },
      },
    });
    let toolIndex = 0;
    contentBlocks(answer).forEach((block, index) => {
      const argumentsText = block.type === 'tool_use' ? answer.toolCalls[toolIndex++]?.argumentsText : undefined;
      const [start, deltas] = blockEvents(block, argumentsText);
      emit({ type: 'content_block_start', index, content_block: start });
      if (index === 0) emit({ type: 'ping' });
      for (const delta of deltas) emit({ type: 'content_block_delta', index, delta });
      emit({ type: 'content_block_stop', index });
    });
    emit({
      type: 'message_delta',
      delta: { stop_reason: STOP_REASONS[answer.finishReason], stop_sequence: null },
      usage: { output_tokens: answer.usage.completion },
    });
    emit({ type: 'message_stop' });
    return events;
  },

  errorBody(status, message) {
    const type = ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
    return { type: 'error', error: { type, message } };
  },

  malformed(stream) {
    return stream
      ? 'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_llm_replay",\n\n'
      : '{"id":"msg_llm_replay","type":"message","content":[{"type":"text","text":"trunc';
  },
};
