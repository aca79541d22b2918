import { type Kysely, type SelectQueryBuilder, type Transaction, sql } from 'kysely';
import type { Dialect } from '../migrations/index.ts';
import type { Tables } from '../tables.ts';
import { isUniqueViolation } from './constraints.ts';
import { countRows } from './count.ts';

/** An event to store: its JSON as received, and the fields it is searched by. */
export interface IncomingEvent {
  id: string;
  kind: string;
  /** ISO-8601 UTC with `Z`. */
  timestamp: string;
  source: string;
  json: string;
}

/** A stored event: its place in the conversation and its JSON. */
export interface StoredEventRow {
  seq: number;
  event_id: string;
  json: string;
}

export interface EventFilter {
  kind?: string;
  source?: string;
  timestampGte?: string;
  timestampLt?: string;
}

export interface EventPageRequest extends EventFilter {
  /** Only events after this sequence number (exclusive). */
  afterSeq?: number;
  /** Start at this sequence number (inclusive; the first of the page in its direction). */
  fromSeq?: number;
  descending: boolean;
  limit: number;
}

/** A conversation whose events the app pulls from its sandbox. */
export interface ConversationOfSandbox {
  id: string;
  user_id: string;
  sandbox_id: string;
}

/** Rows per INSERT and ids per `IN`: 8 parameters a row stays far under both dialects' limits. */
const CHUNK = 500;
/** Attempts of an append that lost a race for the next sequence number (another process appending). */
const APPEND_ATTEMPTS = 5;

/**
 * The events of the app's conversations (`app_events`). Reads take the conversation's owner: another user's
 * conversation has no events. Appends are one transaction per batch; an event id already stored is skipped.
 */
export class EventsRepository {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly dialect: Dialect,
  ) {}

  /**
   * Appends `events` after the conversation's last, in their order, with the next sequence numbers; those whose id
   * is already stored (or repeated in the batch) are skipped. Answers the rows stored.
   */
  async append(conversationId: string, userId: string, events: readonly IncomingEvent[]): Promise<StoredEventRow[]> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.db.transaction().execute(async (trx) => {
          // Replicas on PostgreSQL append to one conversation one at a time (SQLite has one writer anyway).
          if (this.dialect === 'postgres') {
            await sql`select pg_advisory_xact_lock(hashtextextended(${conversationId}, 0))`.execute(trx);
          }
          return appendIn(trx, conversationId, userId, events);
        });
      } catch (error) {
        // Another writer took the same sequence numbers (a process without the lock): read the new end, again.
        if (!isUniqueViolation(error) || attempt >= APPEND_ATTEMPTS) throw error;
      }
    }
  }

  /** The conversation's last event (its id and place), if any. */
  async last(conversationId: string): Promise<{ seq: number; event_id: string } | undefined> {
    return this.db
      .selectFrom('app_events')
      .select(['seq', 'event_id'])
      .where('conversation_id', '=', conversationId)
      .orderBy('seq', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /** The ids among `ids` that the conversation already has. */
  async known(conversationId: string, ids: readonly string[]): Promise<Set<string>> {
    return knownIn(this.db, conversationId, ids);
  }

  async seqOf(userId: string, conversationId: string, eventId: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('app_events')
      .select('seq')
      .where('conversation_id', '=', conversationId)
      .where('user_id', '=', userId)
      .where('event_id', '=', eventId)
      .executeTakeFirst();
    return row?.seq;
  }

  async page(userId: string, conversationId: string, request: EventPageRequest): Promise<StoredEventRow[]> {
    let query = this.filtered(userId, conversationId, request).select(['seq', 'event_id', 'json']);
    const { afterSeq, fromSeq, descending } = request;
    if (afterSeq !== undefined) query = query.where('seq', descending ? '<' : '>', afterSeq);
    if (fromSeq !== undefined) query = query.where('seq', descending ? '<=' : '>=', fromSeq);
    return query
      .orderBy('seq', descending ? 'desc' : 'asc')
      .limit(request.limit)
      .execute();
  }

  async count(userId: string, conversationId: string, filter: EventFilter): Promise<number> {
    return countRows(this.filtered(userId, conversationId, filter));
  }

  /** The JSON of each event id the conversation has, by id. */
  async byIds(userId: string, conversationId: string, ids: readonly string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    for (let start = 0; start < ids.length; start += CHUNK) {
      const rows = await this.db
        .selectFrom('app_events')
        .select(['event_id', 'json'])
        .where('conversation_id', '=', conversationId)
        .where('user_id', '=', userId)
        .where('event_id', 'in', ids.slice(start, start + CHUNK))
        .execute();
      for (const row of rows) found.set(row.event_id, row.json);
    }
    return found;
  }

  /** The conversations held by the sandbox `sandboxId`. */
  async conversationsOfSandbox(sandboxId: string): Promise<ConversationOfSandbox[]> {
    return (await this.db
      .selectFrom('app_conversations')
      .select(['id', 'user_id', 'sandbox_id'])
      .where('sandbox_id', '=', sandboxId)
      .execute()) as ConversationOfSandbox[];
  }

  /** The conversations whose sandbox is RUNNING. */
  async conversationsOfRunningSandboxes(): Promise<ConversationOfSandbox[]> {
    return (await this.db
      .selectFrom('app_conversations')
      .innerJoin('sandboxes', 'sandboxes.id', 'app_conversations.sandbox_id')
      .select(['app_conversations.id', 'app_conversations.user_id', 'app_conversations.sandbox_id'])
      .where('sandboxes.status', '=', 'RUNNING')
      .whereRef('sandboxes.user_id', '=', 'app_conversations.user_id')
      .execute()) as ConversationOfSandbox[];
  }

  /** Who owns conversation `id` (whoever it is), if it exists. */
  async ownerOf(conversationId: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('app_conversations')
      .select('user_id')
      .where('id', '=', conversationId)
      .executeTakeFirst();
    return row?.user_id;
  }

  /**
   * Records a conversation the app did not start (its sandbox reported it first) for the sandbox's owner; a row
   * that exists already is left as it is.
   */
  async adoptConversation(conversationId: string, userId: string, sandboxId: string): Promise<void> {
    const now = new Date().toISOString();
    await this.db
      .insertInto('app_conversations')
      .values({
        id: conversationId,
        user_id: userId,
        org_id: null,
        sandbox_id: sandboxId,
        title: null,
        created_at: now,
        updated_at: now,
      })
      .onConflict((conflict) => conflict.column('id').doNothing())
      .execute();
  }

  private filtered(userId: string, conversationId: string, filter: EventFilter) {
    let query: SelectQueryBuilder<Tables, 'app_events', object> = this.db
      .selectFrom('app_events')
      .where('conversation_id', '=', conversationId)
      .where('user_id', '=', userId);
    if (filter.kind !== undefined) query = query.where('kind', '=', filter.kind);
    if (filter.source !== undefined) query = query.where('source', '=', filter.source);
    if (filter.timestampGte !== undefined) query = query.where('timestamp', '>=', filter.timestampGte);
    if (filter.timestampLt !== undefined) query = query.where('timestamp', '<', filter.timestampLt);
    return query;
  }
}

async function appendIn(
  trx: Transaction<Tables>,
  conversationId: string,
  userId: string,
  events: readonly IncomingEvent[],
): Promise<StoredEventRow[]> {
  const known = await knownIn(
    trx,
    conversationId,
    events.map((event) => event.id),
  );
  const last = await trx
    .selectFrom('app_events')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .where('conversation_id', '=', conversationId)
    .executeTakeFirst();
  let seq = Number(last?.seq ?? 0);
  const rows = [];
  for (const event of events) {
    if (known.has(event.id)) continue;
    known.add(event.id);
    seq += 1;
    rows.push({
      conversation_id: conversationId,
      seq,
      user_id: userId,
      event_id: event.id,
      kind: event.kind,
      timestamp: event.timestamp,
      source: event.source,
      json: event.json,
    });
  }
  for (let start = 0; start < rows.length; start += CHUNK) {
    await trx
      .insertInto('app_events')
      .values(rows.slice(start, start + CHUNK))
      .execute();
  }
  return rows.map(({ seq, event_id, json }) => ({ seq, event_id, json }));
}

async function knownIn(db: Kysely<Tables>, conversationId: string, ids: readonly string[]): Promise<Set<string>> {
  const known = new Set<string>();
  for (let start = 0; start < ids.length; start += CHUNK) {
    const rows = await db
      .selectFrom('app_events')
      .select('event_id')
      .where('conversation_id', '=', conversationId)
      .where('event_id', 'in', ids.slice(start, start + CHUNK))
      .execute();
    for (const row of rows) known.add(row.event_id);
  }
  return known;
}
