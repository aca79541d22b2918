import type { StoredEvent } from '@bosun/protocol';
import { type FollowEventsOptions, followEvents } from '../events-socket.ts';
import type { CallOptions } from '../http.ts';
import type { OperationAt } from '../operation-types.ts';
import { everyPage } from '../paging.ts';
import type { AppServerApi } from './app-server-api.ts';
import type { AppServerClient } from './client.ts';

/** A search of a conversation's events in the app's store: filters, order, `after_event_id`, `limit`, `page_id`. */
export type ConversationEventSearch = NonNullable<
  OperationAt<AppServerApi, '/api/v1/conversation/{conversation_id}/events/search', 'get'>['query']
>;

/** Every event of a conversation in the app's store (matching `query`), page after page. */
export async function* iterateConversationEvents(
  client: AppServerClient,
  conversationId: string,
  query: Omit<ConversationEventSearch, 'page_id'> = {},
  options?: CallOptions,
): AsyncGenerator<StoredEvent, void, undefined> {
  yield* everyPage((pageId) =>
    client.get('/api/v1/conversation/{conversation_id}/events/search', {
      ...options,
      params: { conversation_id: conversationId },
      query: { ...query, ...(pageId ? { page_id: pageId } : {}) },
    }),
  ) as AsyncGenerator<StoredEvent, void, undefined>;
}

/**
 * The conversation's events as the app stores them, over the app's WebSocket (`/sockets/events/{id}`), with the
 * agent server's contract: after `afterEventId` (or from the start with `fromStart`, else from now), reopened
 * and resumed after the last event delivered when the connection drops.
 */
export function followConversationEvents(
  client: Pick<AppServerClient, 'http'>,
  conversationId: string,
  options: FollowEventsOptions = {},
): AsyncGenerator<StoredEvent, void, undefined> {
  return followEvents({
    url: `${client.http.baseUrl.replace(/^http/, 'ws')}/sockets/events/${encodeURIComponent(conversationId)}`,
    headers: client.http.authHeaders,
    ...options,
  });
}
