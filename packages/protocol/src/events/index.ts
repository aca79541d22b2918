import type { Static } from '@sinclair/typebox';
import { taggedUnion } from '../schema/builders.ts';
import * as conversationEvents from './conversation.ts';
import * as llmEvents from './llm.ts';

export * from './common.ts';
export * from './conversation.ts';
export * from './llm.ts';

/** The event shapes, in the order of the `Event` union's variants. */
export const eventShapes = [
  conversationEvents.Condensation,
  conversationEvents.CondensationRequest,
  conversationEvents.CondensationSummaryEvent,
  conversationEvents.ConversationErrorEvent,
  conversationEvents.ConversationStateUpdateEvent,
  conversationEvents.LLMCompletionLogEvent,
  llmEvents.ActionEvent,
  llmEvents.MessageEvent,
  llmEvents.AgentErrorEvent,
  llmEvents.ObservationEvent,
  llmEvents.UserRejectObservation,
  llmEvents.SystemPromptEvent,
  conversationEvents.TokenEvent,
  conversationEvents.PauseEvent,
] as const;

export const Event = taggedUnion('Event', 'One event of a conversation, selected by `kind`.', 'kind', [...eventShapes]);
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
