import type { AnswerStreamPart, LLMDelta } from '@bosun/agent';
import type { StreamDelta, StreamFrame } from '@bosun/protocol';

/** How long pieces of an answer are gathered into one frame: frames stay few while the text still flows. */
const COALESCE_MS = 10;

type Listener = (frame: string) => void;

/**
 * The answer of a conversation's agent as the LLM writes it, for the event sockets that asked for it
 * (`?stream=true`): pieces gathered for a few milliseconds into `StreamFrame`s, serialized once for every
 * listener. Nothing of it is stored; nothing is done for it but numbering while nobody listens.
 */
export class AnswerStream {
  readonly #listeners = new Set<Listener>();
  #pending: { streamId: string; delta: StreamDelta } | undefined;
  #timer: NodeJS.Timeout | undefined;
  #streamId = '';
  #seq = 0;

  constructor(private readonly conversationId: string) {}

  listen(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  publish(part: AnswerStreamPart): void {
    if (this.#pending && this.#pending.streamId !== part.streamId) this.#flush();
    if (part.delta) {
      this.#pending ??= { streamId: part.streamId, delta: {} };
      merge(this.#pending.delta, part.delta);
      this.#timer ??= setTimeout(() => this.#flush(), COALESCE_MS);
    }
    if (part.end) this.#flush(part);
  }

  #flush(end?: AnswerStreamPart): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const pending = this.#pending;
    this.#pending = undefined;
    const streamId = pending?.streamId ?? end?.streamId;
    if (!streamId || (!pending && !end)) return;
    if (streamId !== this.#streamId) {
      this.#streamId = streamId;
      this.#seq = 0;
    }
    const frame: StreamFrame = {
      type: 'stream',
      conversation_id: this.conversationId,
      stream_id: streamId,
      seq: this.#seq++,
      ...(pending ? { delta: pending.delta } : {}),
      ...(end?.end ? { end: end.end } : {}),
      ...(end?.llmResponseId ? { llm_response_id: end.llmResponseId } : {}),
    };
    if (!this.#listeners.size) return;
    const text = JSON.stringify(frame);
    for (const listener of this.#listeners) {
      try {
        listener(text);
      } catch {
        // A failing listener (a socket closing) must not stop the others.
      }
    }
  }
}

/** Adds `delta` to the frame's: texts appended, a tool call's arguments appended to its last piece. */
function merge(into: StreamDelta, delta: LLMDelta): void {
  if (delta.text) into.text = (into.text ?? '') + delta.text;
  if (delta.reasoning) into.reasoning = (into.reasoning ?? '') + delta.reasoning;
  const call = delta.toolCall;
  if (!call) return;
  into.tool_calls ??= [];
  const calls = into.tool_calls;
  const last = calls[calls.length - 1];
  if (last && last.index === call.index && call.id === undefined && call.name === undefined) {
    if (call.arguments) last.arguments = (last.arguments ?? '') + call.arguments;
    return;
  }
  calls.push({ ...call });
}

const streams = new WeakMap<object, AnswerStream>();

/** The answer stream of a loaded conversation (one for as long as it stays loaded). */
export function answerStreamOf(conversation: { readonly id: string }): AnswerStream {
  let stream = streams.get(conversation);
  if (!stream) {
    stream = new AnswerStream(conversation.id);
    streams.set(conversation, stream);
  }
  return stream;
}
