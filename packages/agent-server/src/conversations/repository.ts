import type {
  CatalogQuery,
  CatalogRow,
  ConversationUpdate,
  EventFilter,
  EventPageQuery,
  EventRow,
  EventToAppend,
  Write,
} from '../store/store.ts';

export type { CatalogRow, EventFilter, EventPageQuery, EventToAppend, EventRow };

/**
 * What conversations need of their storage (the SQLite `Store` is the one implementation). Writes are queued and
 * run inside a durable, ordered batch (`enqueue`); the `...Sql` methods are called only inside such a write.
 * Reads see durable data only.
 */
export interface ConversationRepository {
  enqueue<T>(write: Write<T>, durable?: boolean): Promise<T>;
  /** Resolves once everything written so far is durable. */
  sync(): Promise<void>;

  getConversation(id: string): CatalogRow | undefined;
  conversationIdsWithStatus(status: string): string[];
  countConversations(status?: string): number;
  conversationIds(query: CatalogQuery): string[];
  insertConversationSql(row: CatalogRow): void;
  updateConversationAtCommit(id: string, row: () => ConversationUpdate): void;
  deleteConversationSql(id: string): void;

  insertEventsSql(conversationId: string, lastSeq: number, events: EventToAppend[]): EventRow[];
  eventJsonById(conversationId: string, id: string): string | undefined;
  seqOf(conversationId: string, id: string): number | undefined;
  searchEvents(conversationId: string, query: EventPageQuery): EventRow[];
  countEvents(conversationId: string, filter: EventFilter): number;
}
