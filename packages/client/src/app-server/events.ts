import type { EventPage, EventSortOrder, EventSource, StoredEvent } from '@bosun/protocol';
import { type FollowEventsOptions, followEvents } from '../events-socket.ts';
import type { CallOptions } from '../http.ts';
import { inBatches } from './batches.ts';
import { AppServerCalls } from './calls.ts';

export interface ConversationEventFilter {
  /** An event kind, e.g. `MessageEvent`. */
  kind__eq?: string;
  source?: EventSource;
  timestamp__gte?: string;
  timestamp__lt?: string;
}

export interface ConversationEventSearch extends ConversationEventFilter {
  sort_order?: EventSortOrder;
  page_id?: string;
  /** Only events after this one (exclusive). */
  after_event_id?: string;
  limit?: number;
}

/**
 * A conversation's events as the app server keeps them (readable while its sandbox is paused or gone), and their
 * live stream. `AppServerClient` has them all.
 */
export abstract class AppServerEvents extends AppServerCalls {
  searchConversationEvents(
    conversationId: string,
    query: ConversationEventSearch = {},
    options?: CallOptions,
  ): Promise<EventPage> {
    const params = { conversation_id: conversationId };
    return this.call('searchConversationEvents', { ...options, params, query: { ...query } });
  }
  /** Every event (matching `query`), page after page. */
  async *iterateConversationEvents(
    conversationId: string,
    query: Omit<ConversationEventSearch, 'page_id'> = {},
    options?: CallOptions,
  ): AsyncGenerator<StoredEvent, void, undefined> {
    let pageId: string | undefined;
    do {
      const page = await this.searchConversationEvents(
        conversationId,
        { ...query, ...(pageId ? { page_id: pageId } : {}) },
        options,
      );
      yield* page.items as StoredEvent[];
      pageId = page.next_page_id ?? undefined;
    } while (pageId !== undefined);
  }
  countConversationEvents(
    conversationId: string,
    query: ConversationEventFilter = {},
    options?: CallOptions,
  ): Promise<number> {
    const params = { conversation_id: conversationId };
    return this.call('countConversationEvents', { ...options, params, query: { ...query } });
  }
  /** In the order of `ids` (any number: split into batches of 100), null for each unknown. */
  async getConversationEvents(
    conversationId: string,
    ids: readonly string[],
    options?: CallOptions,
  ): Promise<(StoredEvent | null)[]> {
    const params = { conversation_id: conversationId };
    return inBatches(ids, (id) =>
      this.call<(StoredEvent | null)[]>('getConversationEvents', { ...options, params, query: { id } }),
    );
  }
  /**
   * The conversation's events as the app stores them, over the app's WebSocket (`/sockets/events/{id}`), with the
   * agent server's contract: after `afterEventId` (or from the start with `fromStart`, else from now), reopened
   * and resumed after the last event delivered when the connection drops.
   */
  followConversationEvents(
    conversationId: string,
    options: FollowEventsOptions = {},
  ): AsyncGenerator<StoredEvent, void, undefined> {
    return followEvents({
      url: `${this.http.baseUrl.replace(/^http/, 'ws')}/sockets/events/${encodeURIComponent(conversationId)}`,
      headers: this.http.authHeaders,
      ...options,
    });
  }
}
