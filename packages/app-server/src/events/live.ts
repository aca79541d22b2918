import type { Cache, JsonValue } from '../cache/index.ts';
import type { StoredEventRow } from '../data/index.ts';

/** The pub/sub channel of a conversation's new events (every replica's sockets listen on it). */
export const eventsChannel = (conversationId: string) => `events:${conversationId}`;

/** What is published once events are stored: each as `[seq, json]`, in order. */
export interface EventsPublished {
  events: [number, string][];
}

export function publishEvents(cache: Cache, conversationId: string, rows: readonly StoredEventRow[]): Promise<void> {
  const message: EventsPublished = { events: rows.map((row) => [row.seq, row.json]) };
  return cache.publish(eventsChannel(conversationId), message as unknown as JsonValue);
}

/** The stored rows a published message carries (nothing, for a message of another shape). */
export function rowsOf(message: JsonValue): { seq: number; json: string }[] {
  const events = (message as { events?: unknown } | null)?.events;
  if (!Array.isArray(events)) return [];
  return events.flatMap((item) =>
    Array.isArray(item) && typeof item[0] === 'number' && typeof item[1] === 'string'
      ? [{ seq: item[0], json: item[1] }]
      : [],
  );
}
