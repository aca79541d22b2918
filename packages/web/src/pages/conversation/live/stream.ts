import type { StreamFrame } from '@bosun/protocol';

/**
 * The agent's answer as the LLM writes it: stream frames of the event socket (`?stream=true`, `StreamFrame` of
 * `@bosun/protocol`), never events, never stored.
 */

/** An answer being written: its text, its reasoning, the tool calls it starts. */
export interface LiveAnswer {
  streamId: string;
  text: string;
  reasoning: string;
  toolCalls: { id?: string; name?: string; arguments: string }[];
  done: boolean;
  llmResponseId?: string;
  /** A frame was missed (the reader was slow): the text is partial until the events arrive. */
  gap: boolean;
  lastSeq: number;
}

/** The answers being written, by stream, in the order they started. */
export type LiveAnswers = readonly LiveAnswer[];

/** The answers after one frame: a delta appended, an answer ended (`discarded`: dropped). */
export function applyStreamFrame(answers: LiveAnswers, frame: StreamFrame): LiveAnswers {
  if (frame.end === 'discarded') return answers.filter((answer) => answer.streamId !== frame.stream_id);
  const index = answers.findIndex((answer) => answer.streamId === frame.stream_id);
  const previous: LiveAnswer = answers[index] ?? {
    streamId: frame.stream_id,
    text: '',
    reasoning: '',
    toolCalls: [],
    done: false,
    gap: frame.seq !== 0,
    lastSeq: frame.seq - 1,
  };
  const next: LiveAnswer = { ...previous, gap: previous.gap || frame.seq !== previous.lastSeq + 1, lastSeq: frame.seq };
  const delta = frame.delta;
  if (delta?.text) next.text += delta.text;
  if (delta?.reasoning) next.reasoning += delta.reasoning;
  if (delta?.tool_calls) {
    next.toolCalls = [...next.toolCalls];
    for (const call of delta.tool_calls) {
      const current = next.toolCalls[call.index] ?? { arguments: '' };
      next.toolCalls[call.index] = {
        ...current,
        ...(call.id ? { id: call.id } : {}),
        ...(call.name ? { name: call.name } : {}),
        arguments: current.arguments + (call.arguments ?? ''),
      };
    }
  }
  if (frame.end === 'done') {
    next.done = true;
    if (frame.llm_response_id) next.llmResponseId = frame.llm_response_id;
  }
  return index < 0 ? [...answers, next] : answers.map((answer, i) => (i === index ? next : answer));
}

/**
 * The answers once an agent's event is stored: the answer it completes (same `llm_response_id`) is replaced by
 * it; an ended answer without an id goes too (the events that carry it are arriving).
 */
export function settleAnswers(answers: LiveAnswers, llmResponseId: string | null | undefined): LiveAnswers {
  if (answers.length === 0) return answers;
  const left = answers.filter(
    (answer) => !(answer.done && (answer.llmResponseId === undefined || answer.llmResponseId === llmResponseId)),
  );
  return left.length === answers.length ? answers : left;
}

/** The follow options that ask for stream frames: given to `onFrame`, never yielded as events. */
export function streamOptions(onFrame: (frame: StreamFrame) => void): {
  stream: true;
  onStream: (frame: StreamFrame) => void;
} {
  return { stream: true, onStream: onFrame };
}
