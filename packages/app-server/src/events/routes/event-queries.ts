import { InputError } from '@bosun/http';
import { EVENT_SORT_ORDERS, EVENT_SOURCES } from '@bosun/protocol';
import { type Static, Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import type { EventFilter, EventsRepository, StoredEventRow } from '../../data/index.ts';
import { utcOf } from '../index.ts';

/** The filters of a search or count of a conversation's events. */
export const EventFilterQuery = {
  kind__eq: Type.Optional(Type.String({ maxLength: 200, description: 'Event kind, e.g. `MessageEvent`.' })),
  kind: Type.Optional(
    Type.String({ maxLength: 200, description: 'The same as `kind__eq` (the agent server’s name for it).' }),
  ),
  source: Type.Optional(Type.Unsafe<string>({ type: 'string', enum: [...EVENT_SOURCES] })),
  timestamp__gte: Type.Optional(Type.String({ format: 'date-time' })),
  timestamp__lt: Type.Optional(Type.String({ format: 'date-time' })),
};
const eventFilterQuery = Type.Object(EventFilterQuery);
export type EventFilterQuery = Static<typeof eventFilterQuery>;

/** The filters, order and paging of a search. */
export const EventSearchQuery = {
  ...EventFilterQuery,
  sort_order: Type.Optional(
    Type.Unsafe<'TIMESTAMP' | 'TIMESTAMP_DESC'>({ type: 'string', enum: [...EVENT_SORT_ORDERS] }),
  ),
  page_id: Type.Optional(Type.String({ maxLength: 200, description: 'The `next_page_id` of the previous page.' })),
  after_event_id: Type.Optional(
    Type.String({ maxLength: 200, description: 'Only events after this one (exclusive): a resume cursor.' }),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Items per page (default 100).' })),
};
const eventSearchQuery = Type.Object(EventSearchQuery);
export type EventSearchQuery = Static<typeof eventSearchQuery>;

/** A page of events as stored, and the id the next page starts at (null: the last page). */
export interface StoredEventPage {
  rows: StoredEventRow[];
  next: string | null;
}

/**
 * The page `query` asks of the conversation's events, in the conversation's order (the app's sequence, never
 * time); an unknown `page_id` or `after_event_id` is a 422.
 */
export async function eventPageOf(
  events: EventsRepository,
  userId: string,
  conversationId: string,
  query: EventSearchQuery,
): Promise<StoredEventPage> {
  const limit = query.limit ?? 100;
  const cursor = (eventId: string | undefined, param: string) =>
    eventId === undefined ? undefined : seqOf(events, userId, conversationId, eventId, param);
  const fromSeq = await cursor(query.page_id, 'page_id');
  const afterSeq = await cursor(query.after_event_id, 'after_event_id');
  const rows = await events.page(userId, conversationId, {
    ...eventFilterOf(query),
    descending: query.sort_order === 'TIMESTAMP_DESC',
    limit: limit + 1,
    ...(fromSeq === undefined ? {} : { fromSeq }),
    ...(afterSeq === undefined ? {} : { afterSeq }),
  });
  const next = rows.length > limit ? (rows.pop()?.event_id ?? null) : null;
  return { rows, next };
}

async function seqOf(
  events: EventsRepository,
  userId: string,
  conversationId: string,
  eventId: string,
  param: string,
): Promise<number> {
  const seq = await events.seqOf(userId, conversationId, eventId);
  if (seq === undefined) {
    throw new InputError([
      { loc: ['query', param], msg: `No event with id ${eventId} in this conversation`, type: 'value_error' },
    ]);
  }
  return seq;
}

/** The repository's filter of a query's. */
export function eventFilterOf(query: EventFilterQuery): EventFilter {
  const filter: EventFilter = {};
  const kind = query.kind__eq ?? query.kind;
  if (kind !== undefined) filter.kind = kind.split('.').pop() as string;
  if (query.source !== undefined) filter.source = query.source;
  if (query.timestamp__gte !== undefined) filter.timestampGte = utcOf(query.timestamp__gte) as string;
  if (query.timestamp__lt !== undefined) filter.timestampLt = utcOf(query.timestamp__lt) as string;
  return filter;
}

/** An event page's JSON, each event's JSON as `json` makes it of the stored one. */
export function eventPageJson(page: StoredEventPage, json: (row: StoredEventRow) => string = (row) => row.json) {
  return `{"items":[${page.rows.map(json).join(',')}],"next_page_id":${JSON.stringify(page.next)}}`;
}

/** Stored JSON is sent as it is, never parsed and serialized again. */
export function sendJson(reply: FastifyReply, json: string): FastifyReply {
  return reply
    .type('application/json; charset=utf-8')
    .serializer((payload) => payload as string)
    .send(json);
}
