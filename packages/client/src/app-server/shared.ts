import type { EventPage, SharedConversation, StoredEvent } from '@bosun/protocol';
import type { CallOptions } from '../http.ts';
import { inBatches } from './batches.ts';
import type { ConversationEventFilter, ConversationEventSearch } from './events.ts';
import { AppServerMarketplaces } from './marketplaces.ts';

/**
 * Conversations their owners made public (`updateAppConversation(id, { public: true })`), read as anyone may: the
 * server needs no credentials for them. A conversation that is not (or no longer) public is as unknown as one that
 * does not exist: null in a batch, a 404 `BosunApiError` otherwise.
 */
export abstract class AppServerShared extends AppServerMarketplaces {
  /** In the order of `ids` (any number: split into batches of 100), null for each unknown or not shared. */
  getSharedConversations(ids: readonly string[], options?: CallOptions): Promise<(SharedConversation | null)[]> {
    return inBatches(ids, (batch) =>
      this.call<(SharedConversation | null)[]>('getSharedConversations', { ...options, query: { ids: batch } }),
    );
  }
  searchSharedEvents(
    conversationId: string,
    query: ConversationEventSearch = {},
    options?: CallOptions,
  ): Promise<EventPage> {
    return this.call('searchSharedEvents', { ...options, query: { conversation_id: conversationId, ...query } });
  }
  countSharedEvents(
    conversationId: string,
    query: ConversationEventFilter = {},
    options?: CallOptions,
  ): Promise<number> {
    return this.call('countSharedEvents', { ...options, query: { conversation_id: conversationId, ...query } });
  }
  /** In the order of `ids` (any number: split into batches of 100), null for each unknown. */
  getSharedEvents(
    conversationId: string,
    ids: readonly string[],
    options?: CallOptions,
  ): Promise<(StoredEvent | null)[]> {
    return inBatches(ids, (id) =>
      this.call<(StoredEvent | null)[]>('getSharedEvents', {
        ...options,
        query: { conversation_id: conversationId, id },
      }),
    );
  }
  getSharedEvent(conversationId: string, eventId: string, options?: CallOptions): Promise<StoredEvent> {
    const params = { conversation_id: conversationId, event_id: eventId };
    return this.call('getSharedEvent', { ...options, params });
  }
}
