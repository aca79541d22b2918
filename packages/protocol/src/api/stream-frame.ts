import { type Static, Type } from '@sinclair/typebox';
import { strictObject, stringEnum, tag } from '../schema/builders.ts';

/** A piece of a tool call as it streams: `id` and `name` come with its first piece, then its arguments' text. */
export const StreamToolCallDelta = Type.Object(
  {
    index: Type.Integer({ minimum: 0, description: 'Which tool call of the answer (0, 1, ...).' }),
    id: Type.Optional(Type.String()),
    name: Type.Optional(Type.String()),
    arguments: Type.Optional(Type.String({ description: 'More of the JSON text of its arguments.' })),
  },
  { additionalProperties: false },
);
export type StreamToolCallDelta = Static<typeof StreamToolCallDelta>;

/** What a stream frame adds to the answer; each text is to be appended to what the stream said before. */
export const StreamDelta = Type.Object(
  {
    text: Type.Optional(Type.String({ description: "More of the answer's text." })),
    reasoning: Type.Optional(Type.String({ description: 'More of its reasoning (thinking) text.' })),
    tool_calls: Type.Optional(Type.Array(StreamToolCallDelta)),
  },
  { additionalProperties: false },
);
export type StreamDelta = Static<typeof StreamDelta>;

/**
 * A frame of an event socket opened with `?stream=true`: the agent's answer as the LLM writes it. Never an event
 * (no `kind`; `type: "stream"`), never stored, never sent to a socket that did not ask. Each attempt of each LLM
 * call is a stream of its own (`stream_id`), numbered from 0 (`seq`): a gap means frames were dropped (the
 * subscriber was slow), and only the text is partial, since the answer's events carry it all. The last frame
 * of a stream has `end`: `done` (the answer is complete; its MessageEvent or ActionEvents, which carry the
 * same `llm_response_id`, follow) or `discarded` (the attempt failed or was cancelled: forget its text; a retry
 * streams again under a new `stream_id`).
 */
export const StreamFrame = strictObject('StreamFrame', "A piece of the agent's answer as it is written.", {
  type: tag('stream'),
  conversation_id: Type.String(),
  stream_id: Type.String({ description: 'One attempt of one LLM call.' }),
  seq: Type.Integer({ minimum: 0, description: 'The place of the frame in its stream: 0, 1, 2, ...' }),
  delta: Type.Optional(StreamDelta),
  end: Type.Optional(stringEnum(['done', 'discarded'])),
  llm_response_id: Type.Optional(Type.String({ description: 'With `end: done`: the id its events carry.' })),
});
export type StreamFrame = Static<typeof StreamFrame>;
