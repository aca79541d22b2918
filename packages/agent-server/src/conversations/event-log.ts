import type { StoredEvent } from '@bosun/protocol';
import { agentFinalResponse } from './final-response.ts';
import { fromRow } from './new-event.ts';
import type { ConversationRepository, EventFilter, EventPageQuery, EventRow } from './repository.ts';

/** What is read of the conversations' logs: durable events only, their JSON as stored (and served). */
export class EventLog {
  constructor(private readonly repository: ConversationRepository) {}

  /** The event's JSON; undefined for an id not in this conversation. */
  json(conversationId: string, eventId: string): string | undefined {
    return this.repository.eventJsonById(conversationId, eventId);
  }

  /** The event's place in the log; undefined for an id not in this conversation. */
  seqOf(conversationId: string, eventId: string): number | undefined {
    return this.repository.seqOf(conversationId, eventId);
  }

  page(conversationId: string, query: EventPageQuery): EventRow[] {
    return this.repository.searchEvents(conversationId, query);
  }

  count(conversationId: string, filter: EventFilter): number {
    return this.repository.countEvents(conversationId, filter);
  }

  /** Every event of the conversation, parsed, in order. */
  history(conversationId: string): StoredEvent[] {
    return this.repository
      .searchEvents(conversationId, { descending: false, limit: Number.MAX_SAFE_INTEGER })
      .map(fromRow);
  }

  /** The agent's final answer (see `agentFinalResponse`). */
  finalResponse(conversationId: string): string {
    return agentFinalResponse(this.repository, conversationId);
  }
}
