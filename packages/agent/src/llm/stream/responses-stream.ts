import type { LLMDelta } from '../types.ts';
import { type StreamAssembler, brokenOff, eventJson, streamError } from './post-stream.ts';
import type { SseMessage } from './sse.ts';

interface StreamedItem {
  type?: string;
  id?: string;
  call_id?: string;
  name?: string;
}

/**
 * A Responses API stream (`response.created` ... `response.completed`) made whole: the final event carries the
 * whole response; its output items are taken from the `response.output_item.done` events when it has none.
 */
export class ResponsesStreamAssembler implements StreamAssembler {
  #final: Record<string, unknown> | undefined;
  #items: unknown[] = [];
  /** The tool-call index (0, 1, ...) of each function-call output index. */
  #callIndex = new Map<number, number>();

  push(message: SseMessage, emit: (delta: LLMDelta) => void): void {
    const event = eventJson(message);
    const type = String(event.type ?? message.event ?? '');
    const outputIndex = typeof event.output_index === 'number' ? event.output_index : 0;
    switch (type) {
      case 'response.output_text.delta':
        if (event.delta) emit({ text: String(event.delta) });
        break;
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
        if (event.delta) emit({ reasoning: String(event.delta) });
        break;
      case 'response.output_item.added': {
        const item = (event.item ?? {}) as StreamedItem;
        if (item.type !== 'function_call') break;
        const index = this.#callIndex.size;
        this.#callIndex.set(outputIndex, index);
        const id = item.call_id ?? item.id;
        emit({ toolCall: { index, ...(id ? { id } : {}), ...(item.name ? { name: item.name } : {}) } });
        break;
      }
      case 'response.function_call_arguments.delta': {
        const index = this.#callIndex.get(outputIndex);
        if (index !== undefined && event.delta) emit({ toolCall: { index, arguments: String(event.delta) } });
        break;
      }
      case 'response.output_item.done':
        this.#items[outputIndex] = event.item;
        break;
      case 'response.completed':
      case 'response.incomplete':
        this.#final = (event.response ?? {}) as Record<string, unknown>;
        break;
      case 'response.failed':
        throw streamError((event.response as { error?: unknown } | undefined)?.error ?? event);
      case 'error':
        throw streamError(event.error ?? event);
    }
  }

  answer(): unknown {
    if (!this.#final) throw brokenOff('no response.completed');
    const output = this.#final.output;
    if (Array.isArray(output) && output.length) return this.#final;
    return { ...this.#final, output: this.#items.filter(Boolean) };
  }
}
