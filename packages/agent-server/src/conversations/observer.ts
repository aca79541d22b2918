import type { Conversation } from './conversation.ts';
import type { EventRow } from './repository.ts';

/**
 * Told of every durable change of every conversation, whether or not anyone follows it (webhooks follow the logs
 * through it). Called synchronously once the change is durable: an observer must only take note, never do work.
 */
export interface ConversationObserver {
  /** A conversation was created or forked; it is durable with the events it started with. */
  created(conversation: Conversation): void;
  /** Events were appended (in log order, durable) and/or the conversation's record changed. */
  committed(conversation: Conversation, events: readonly EventRow[], recordChanged: boolean): void;
  /** The conversation and its events are gone (`conversation` is what it was just before). */
  deleted(conversation: Conversation): void;
}
