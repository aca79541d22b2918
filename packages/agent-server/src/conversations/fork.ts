import { randomUUID } from 'node:crypto';
import { cp } from 'node:fs/promises';
import { ConflictError, NotFoundError } from '@bosun/http';
import type { ForkConversationRequest, StoredEvent } from '@bosun/protocol';
import type { Conversation } from './conversation.ts';
import { fromRow, now, toRow } from './new-event.ts';
import { type ConversationRecord, newCatalogRow } from './record.ts';
import type { ConversationRepository } from './repository.ts';

/**
 * Forks `source`: a new idle conversation with the same configuration (agent, secrets, plugins and skills at the
 * same commits) and a copy of its events up to `from_event_id` (default: all). The fork's catalog row and its
 * events are one durable write, so a crash never leaves half a fork; the files of its tools are copied too.
 */
export async function forkConversation(
  store: ConversationRepository,
  /** The loaded conversation of an id, if there is one. */
  get: (id: string) => Conversation | undefined,
  /** The directory of a conversation's files (tool outputs, task list, recordings). */
  stateDir: (id: string) => string,
  source: Conversation,
  request: ForkConversationRequest,
): Promise<Conversation> {
  const id = (request.id ?? randomUUID()).toLowerCase();
  if (get(id)) throw new ConflictError(`Conversation already exists: ${id}`);
  const lastSeq = request.from_event_id ? store.seqOf(source.id, request.from_event_id) : source.lastSeq;
  if (lastSeq === undefined) throw new NotFoundError(`Event not found: ${request.from_event_id}`);
  const events = store.searchEvents(source.id, { descending: false, limit: lastSeq }).map(fromRow);
  const at = now();
  const record: ConversationRecord = {
    ...structuredClone(source.record),
    title: request.title ?? source.record.title,
    tags: request.tags ?? source.record.tags,
    execution_status: 'idle',
    last_user_message_id: lastUserMessageId(events),
    forked_from: { conversation_id: source.id, event_id: events[events.length - 1]?.id ?? null },
    created_at: at,
    updated_at: at,
  };
  record.request = { ...record.request, conversation_id: id, initial_message: null, tags: record.tags };
  if (request.reset_metrics) record.stats = { usage_to_metrics: {} };
  await cp(stateDir(source.id), stateDir(id), { recursive: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
  try {
    await store.enqueue({
      apply: () => {
        store.insertConversationSql(newCatalogRow(id, record));
        store.insertEventsSql(id, 0, events.map(toRow));
      },
    });
  } catch (error) {
    if (get(id)) throw new ConflictError(`Conversation already exists: ${id}`);
    throw error;
  }
  return get(id) as Conversation;
}

function lastUserMessageId(events: readonly StoredEvent[]): string | null {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i] as StoredEvent;
    if (event.kind === 'MessageEvent' && event.source === 'user') return event.id;
  }
  return null;
}
