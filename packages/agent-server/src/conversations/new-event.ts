import {
  type ConversationExecutionStatus,
  type Event,
  type NewEvent,
  type StoredEvent,
  parseEvent,
} from '@bosun/protocol';

export type { NewEvent };

import { newEventId } from './event-id.ts';
import type { EventRow, EventToAppend } from './repository.ts';

export function now(): string {
  return new Date().toISOString();
}

/** Completes, validates and serializes an event for the log. Invalid events are a bug of the caller: it throws. */
export function prepareEvent(partial: NewEvent): { event: StoredEvent; row: EventToAppend } {
  const event = parseEvent({
    ...partial,
    id: partial.id ?? newEventId(),
    timestamp: partial.timestamp ?? now(),
  }) as StoredEvent;
  return { event, row: toRow(event) };
}

export function toRow(event: StoredEvent): EventToAppend {
  return {
    id: event.id,
    kind: event.kind,
    source: event.source,
    timestamp: event.timestamp,
    searchText: searchText(event),
    json: JSON.stringify(event),
  };
}

/** The state event that records a move to `status`. */
export function statusEvent(status: ConversationExecutionStatus): NewEvent {
  return { kind: 'ConversationStateUpdateEvent', source: 'environment', key: 'execution_status', value: status };
}

/** The event a log row holds (validated when it was appended). */
export function fromRow(row: Pick<EventRow, 'json'>): StoredEvent {
  return JSON.parse(row.json) as StoredEvent;
}

/** The text `body` search matches: a message's text, its extended content and its reasoning, lowercased. */
function searchText(event: Event): string | undefined {
  if (event.kind !== 'MessageEvent') return undefined;
  const parts: string[] = [];
  for (const block of event.llm_message.content) if (block.type === 'text') parts.push(block.text);
  for (const block of event.extended_content) parts.push(block.text);
  if (event.llm_message.reasoning_content) parts.push(event.llm_message.reasoning_content);
  return parts.join('\n').toLowerCase();
}
