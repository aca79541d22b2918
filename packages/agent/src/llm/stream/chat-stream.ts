import type { LLMDelta } from '../types.ts';
import { type StreamAssembler, brokenOff, eventJson, streamError } from './post-stream.ts';
import type { SseMessage } from './sse.ts';

interface ChunkToolCall {
  index?: number;
  id?: string;
  function?: { name?: string; arguments?: string };
}

interface Chunk {
  id?: string;
  model?: string;
  usage?: unknown;
  prompt_token_ids?: number[];
  error?: unknown;
  choices?: {
    delta?: { content?: string | null; reasoning_content?: string | null; tool_calls?: ChunkToolCall[] };
    finish_reason?: string | null;
    token_ids?: number[];
  }[];
}

/**
 * A Chat Completions stream (`data: {chunk}` lines, then `data: [DONE]`) made whole: the `chat.completion`
 * answer the same request unstreamed would have had, usage included (`stream_options.include_usage`).
 */
export class ChatStreamAssembler implements StreamAssembler {
  #id: string | undefined;
  #model: string | undefined;
  #content = '';
  #hasContent = false;
  #reasoning = '';
  #hasReasoning = false;
  #calls: { id: string; name: string; arguments: string }[] = [];
  #finishReason: string | null = null;
  #usage: unknown;
  #promptTokenIds: number[] | undefined;
  #tokenIds: number[] | undefined;
  #done = false;

  push(message: SseMessage, emit: (delta: LLMDelta) => void): void {
    if (message.data.trim() === '[DONE]') {
      this.#done = true;
      return;
    }
    const chunk = eventJson(message) as Chunk;
    if (chunk.error) throw streamError(chunk.error);
    this.#id ??= chunk.id;
    this.#model ??= chunk.model;
    if (chunk.usage) this.#usage = chunk.usage;
    if (chunk.prompt_token_ids) this.#promptTokenIds = chunk.prompt_token_ids;
    for (const choice of chunk.choices ?? []) {
      const delta = choice.delta ?? {};
      if (typeof delta.reasoning_content === 'string') {
        this.#hasReasoning = true;
        this.#reasoning += delta.reasoning_content;
        if (delta.reasoning_content) emit({ reasoning: delta.reasoning_content });
      }
      if (typeof delta.content === 'string' && delta.content) {
        this.#hasContent = true;
        this.#content += delta.content;
        emit({ text: delta.content });
      }
      for (const piece of delta.tool_calls ?? []) this.#toolCallPiece(piece, emit);
      if (choice.finish_reason) this.#finishReason = choice.finish_reason;
      if (choice.token_ids) this.#tokenIds = choice.token_ids;
    }
  }

  #toolCallPiece(piece: ChunkToolCall, emit: (delta: LLMDelta) => void): void {
    const index = piece.index ?? this.#calls.length;
    let call = this.#calls[index];
    const isNew = !call;
    if (!call) {
      call = { id: '', name: '', arguments: '' };
      this.#calls[index] = call;
    }
    if (piece.id) call.id = piece.id;
    if (piece.function?.name) call.name += piece.function.name;
    const args = piece.function?.arguments ?? '';
    call.arguments += args;
    emit({
      toolCall: {
        index,
        ...(isNew && call.id ? { id: call.id } : {}),
        ...(piece.function?.name ? { name: piece.function.name } : {}),
        ...(args ? { arguments: args } : {}),
      },
    });
  }

  answer(): unknown {
    // Some servers end without `[DONE]`; a finish reason says the answer is complete all the same.
    if (!this.#done && this.#finishReason === null) throw brokenOff('no finish_reason, no [DONE]');
    const calls = this.#calls.filter(Boolean);
    const choice = {
      index: 0,
      message: {
        role: 'assistant',
        content: this.#hasContent ? this.#content : null,
        ...(this.#hasReasoning ? { reasoning_content: this.#reasoning } : {}),
        ...(calls.length
          ? {
              tool_calls: calls.map((call) => ({
                id: call.id,
                type: 'function',
                function: { name: call.name, arguments: call.arguments },
              })),
            }
          : {}),
      },
      finish_reason: this.#finishReason,
      ...(this.#tokenIds ? { token_ids: this.#tokenIds } : {}),
    };
    return {
      ...(this.#id ? { id: this.#id } : {}),
      object: 'chat.completion',
      ...(this.#model ? { model: this.#model } : {}),
      choices: [choice],
      ...(this.#usage ? { usage: this.#usage } : {}),
      ...(this.#promptTokenIds ? { prompt_token_ids: this.#promptTokenIds } : {}),
    };
  }
}
