import type { Event, StoredEvent } from '@bosun/protocol';

/** Whether `event` came out of the log: stored events always carry their `id` and `timestamp`. */
export function isStored<E extends Event>(event: E): event is E & StoredEvent {
  return event.id !== undefined && event.timestamp !== undefined;
}
