/**
 * The agent's answer as the LLM writes it: stream frames of the event socket (`?stream=true`), never events,
 * never stored. Typed here after `StreamFrame` of `@bosun/protocol` (`api/stream-frame.ts`); once the client has
 * the option, `streamOptions` below is all that changes.
 */

export interface StreamToolCallDelta {
  index: number;
  id?: string;
  name?: string;
  arguments?: string;
}

export interface StreamDelta {
  text?: string;
  reasoning?: string;
  tool_calls?: StreamToolCallDelta[];
}

/** One frame: `type: "stream"`, one attempt of one LLM call (`stream_id`), numbered from 0 (`seq`). */
export interface StreamFrame {
  type: 'stream';
  conversation_id: string;
  stream_id: string;
  seq: number;
  delta?: StreamDelta;
  /** `done`: the answer is complete, its events (same `llm_response_id`) follow; `discarded`: forget its text. */
  end?: 'done' | 'discarded';
  llm_response_id?: string;
}

export function isStreamFrame(frame: unknown): frame is StreamFrame {
  return (
    typeof frame === 'object' && frame !== null && (frame as { type?: unknown }).type === 'stream' && !('kind' in frame)
  );
}

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

/**
 * The follow options that ask for stream frames: `followEvents({ stream: true, onStream })` of the client on the
 * branch that adds them (frames given to `onStream`, never yielded). A client without them ignores both.
 */
export function streamOptions(onFrame: (frame: StreamFrame) => void): {
  stream: true;
  onStream: (frame: StreamFrame) => void;
} {
  return { stream: true, onStream: onFrame };
}
