import type { LLMDelta } from '../types.ts';
import { type StreamAssembler, brokenOff, eventJson, streamError } from './post-stream.ts';
import type { SseMessage } from './sse.ts';

type Block = Record<string, unknown>;

/**
 * An Anthropic Messages stream (`message_start`, `content_block_*`, `message_delta`, `message_stop`) made
 * whole: the message the same request unstreamed would have had. A tool call's input is the JSON its pieces
 * make (the text itself when that is not JSON).
 */
export class AnthropicStreamAssembler implements StreamAssembler {
  #message: Record<string, unknown> | undefined;
  #blocks: Block[] = [];
  /** The partial JSON of each tool_use block, by block index. */
  #inputs = new Map<number, string>();
  /** The tool-call index (0, 1, ...) of each tool_use block index. */
  #callIndex = new Map<number, number>();
  #usage: Record<string, unknown> = {};
  #stopped = false;

  push(message: SseMessage, emit: (delta: LLMDelta) => void): void {
    const event = eventJson(message);
    const index = typeof event.index === 'number' ? event.index : 0;
    switch (event.type ?? message.event) {
      case 'message_start':
        this.#message = (event.message ?? {}) as Record<string, unknown>;
        this.#usage = { ...((this.#message.usage as Record<string, unknown> | undefined) ?? {}) };
        break;
      case 'content_block_start': {
        const block = { ...((event.content_block ?? {}) as Block) };
        this.#blocks[index] = block;
        if (block.type === 'tool_use') {
          const call = this.#callIndex.size;
          this.#callIndex.set(index, call);
          this.#inputs.set(index, '');
          emit({ toolCall: { index: call, id: String(block.id ?? ''), name: String(block.name ?? '') } });
        }
        break;
      }
      case 'content_block_delta':
        this.#delta(index, (event.delta ?? {}) as Block, emit);
        break;
      case 'content_block_stop': {
        const block = this.#blocks[index];
        const json = this.#inputs.get(index);
        if (block?.type === 'tool_use' && json !== undefined) block.input = parseInput(json);
        break;
      }
      case 'message_delta':
        if (this.#message) Object.assign(this.#message, event.delta ?? {});
        Object.assign(this.#usage, event.usage ?? {});
        break;
      case 'message_stop':
        this.#stopped = true;
        break;
      case 'error':
        throw streamError(event.error ?? event);
    }
  }

  #delta(index: number, delta: Block, emit: (delta: LLMDelta) => void): void {
    const block = this.#blocks[index];
    if (!block) return;
    if (delta.type === 'text_delta') {
      const text = String(delta.text ?? '');
      block.text = String(block.text ?? '') + text;
      if (text) emit({ text });
    } else if (delta.type === 'thinking_delta') {
      const thinking = String(delta.thinking ?? '');
      block.thinking = String(block.thinking ?? '') + thinking;
      if (thinking) emit({ reasoning: thinking });
    } else if (delta.type === 'signature_delta') {
      block.signature = String(block.signature ?? '') + String(delta.signature ?? '');
    } else if (delta.type === 'input_json_delta') {
      const piece = String(delta.partial_json ?? '');
      this.#inputs.set(index, (this.#inputs.get(index) ?? '') + piece);
      const call = this.#callIndex.get(index);
      if (piece && call !== undefined) emit({ toolCall: { index: call, arguments: piece } });
    }
  }

  answer(): unknown {
    if (!this.#message || !this.#stopped) throw brokenOff('no message_stop');
    return { ...this.#message, content: this.#blocks.filter(Boolean), usage: this.#usage };
  }
}

function parseInput(json: string): unknown {
  if (!json.trim()) return {};
  try {
    return JSON.parse(json);
  } catch {
    return json;
  }
}
