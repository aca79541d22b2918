import type { Static } from '@sinclair/typebox';
import { taggedUnion } from '../schema/builders.ts';
import {
  Condensation,
  CondensationRequest,
  CondensationSummaryEvent,
  ConversationErrorEvent,
  ConversationStateUpdateEvent,
  LLMCompletionLogEvent,
  PauseEvent,
  TokenEvent,
} from './conversation.ts';
import {
  ActionEvent,
  AgentErrorEvent,
  MessageEvent,
  ObservationEvent,
  SystemPromptEvent,
  UserRejectObservation,
} from './llm.ts';

export * from './common.ts';
export * from './conversation.ts';
export * from './llm.ts';

export const eventShapes = [
  Condensation,
  CondensationRequest,
  CondensationSummaryEvent,
  ConversationErrorEvent,
  ConversationStateUpdateEvent,
  LLMCompletionLogEvent,
  ActionEvent,
  MessageEvent,
  AgentErrorEvent,
  ObservationEvent,
  UserRejectObservation,
  SystemPromptEvent,
  TokenEvent,
  PauseEvent,
] as const;

export const Event = taggedUnion('Event', 'kind', [...eventShapes], {
  description: 'One event of a conversation, selected by `kind`.',
});
export type Event = Static<typeof Event>;
export type EventKind = Event['kind'];

/** The event of the given kind. */
export type EventOf<K extends EventKind> = Extract<Event, { kind: K }>;

/**
 * An event as it comes out of a conversation's log: whoever stores an event sets its `id` and `timestamp`, so
 * both are always there. Its place in the log (the agent server's `seq`) is kept beside the event, never in it:
 * the event's JSON is served exactly as stored.
 */
export type StoredEvent<K extends EventKind = EventKind> = EventOf<K> & { id: string; timestamp: string };

/** An event about to be appended: `id` and `timestamp` are filled in by whoever stores it. */
export type NewEvent = Event extends infer E
  ? E extends Event
    ? Omit<E, 'id' | 'timestamp'> & { id?: string; timestamp?: string }
    : never
  : never;
