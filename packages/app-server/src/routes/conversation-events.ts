import { InputError, NotFoundError } from '@bosun/http';
import { EVENT_SORT_ORDERS, EVENT_SOURCES } from '@bosun/protocol';
import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { conversationIdOf } from '../conversation-ids.ts';
import type { AppConversation, EventFilter, EventsRepository, Repositories } from '../data/index.ts';
import { utcOf } from '../events/index.ts';
import { principalOf } from '../identity/authenticate.ts';
import { shape } from './replies.ts';
import { routeOptions } from './route-options.ts';
import { BatchQuery } from './sandbox-wire.ts';

const route = routeOptions('Events');

/** A conversation id in a path: a UUID, dashed or as 32 hex digits. */
export const ConversationIdParams = Type.Object(
  {
    conversation_id: Type.String({
      pattern: '^([0-9a-fA-F]{32}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$',
      description: 'The conversation’s id (a UUID, dashed or not).',
    }),
  },
  { additionalProperties: false },
);
export type ConversationIdParams = Static<typeof ConversationIdParams>;

const FilterQuery = {
  kind__eq: Type.Optional(Type.String({ maxLength: 200, description: 'Event kind, e.g. `MessageEvent`.' })),
  kind: Type.Optional(
    Type.String({ maxLength: 200, description: 'The same as `kind__eq` (the agent server’s name for it).' }),
  ),
  source: Type.Optional(Type.Unsafe<string>({ type: 'string', enum: [...EVENT_SOURCES] })),
  timestamp__gte: Type.Optional(Type.String({ format: 'date-time' })),
  timestamp__lt: Type.Optional(Type.String({ format: 'date-time' })),
};
const SearchQuery = Type.Object(
  {
    ...FilterQuery,
    sort_order: Type.Optional(
      Type.Unsafe<'TIMESTAMP' | 'TIMESTAMP_DESC'>({ type: 'string', enum: [...EVENT_SORT_ORDERS] }),
    ),
    page_id: Type.Optional(Type.String({ maxLength: 200, description: 'The `next_page_id` of the previous page.' })),
    after_event_id: Type.Optional(
      Type.String({ maxLength: 200, description: 'Only events after this one (exclusive): a resume cursor.' }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Items per page (default 100).' })),
  },
  { additionalProperties: false },
);
type SearchQuery = Static<typeof SearchQuery>;
const CountQuery = Type.Object(FilterQuery, { additionalProperties: false });
type CountQuery = Static<typeof CountQuery>;

export interface ConversationEventRouteDeps {
  conversations: Pick<Repositories['conversations'], 'get'>;
  events: EventsRepository;
}

/**
 * `/api/v1/conversation/{id}/events/search|count` and the batch get, from the app's own store (so they answer
 * while the sandbox is paused or gone). Pages follow the conversation's order (the app's sequence), never time.
 */
export function conversationEventRoutes(app: FastifyInstance, deps: ConversationEventRouteDeps): void {
  const { events } = deps;
  app.get<{ Params: ConversationIdParams; Querystring: SearchQuery }>(
    '/conversation/:conversation_id/events/search',
    route('Search a conversation’s events, a page at a time', {
      params: ConversationIdParams,
      querystring: SearchQuery,
      response: { 200: 'EventPage' },
    }),
    async (request, reply) => {
      const { userId } = principalOf(request);
      const conversation = await conversationOf(deps, userId, request.params.conversation_id);
      const { query } = request;
      const limit = query.limit ?? 100;
      const cursor = (eventId: string | undefined, param: string) =>
        eventId === undefined ? undefined : seqOf(events, userId, conversation.id, eventId, param);
      const fromSeq = await cursor(query.page_id, 'page_id');
      const afterSeq = await cursor(query.after_event_id, 'after_event_id');
      const rows = await events.page(userId, conversation.id, {
        ...filterOf(query),
        descending: query.sort_order === 'TIMESTAMP_DESC',
        limit: limit + 1,
        ...(fromSeq === undefined ? {} : { fromSeq }),
        ...(afterSeq === undefined ? {} : { afterSeq }),
      });
      const next = rows.length > limit ? (rows.pop()?.event_id ?? null) : null;
      return sendJson(
        reply,
        `{"items":[${rows.map((row) => row.json).join(',')}],"next_page_id":${JSON.stringify(next)}}`,
      );
    },
  );

  app.get<{ Params: ConversationIdParams; Querystring: CountQuery }>(
    '/conversation/:conversation_id/events/count',
    route('Count a conversation’s events', {
      params: ConversationIdParams,
      querystring: CountQuery,
      response: { 200: Type.Integer() },
    }),
    async (request) => {
      const { userId } = principalOf(request);
      const conversation = await conversationOf(deps, userId, request.params.conversation_id);
      return events.count(userId, conversation.id, filterOf(request.query));
    },
  );

  app.get<{ Params: ConversationIdParams; Querystring: BatchQuery }>(
    '/conversation/:conversation_id/events',
    route('A conversation’s events by id (null for each unknown)', {
      params: ConversationIdParams,
      querystring: BatchQuery,
      response: { 200: Type.Array(Type.Union([shape('Event'), Type.Null()])) },
    }),
    async (request, reply) => {
      const { userId } = principalOf(request);
      const conversation = await conversationOf(deps, userId, request.params.conversation_id);
      const found = await events.byIds(userId, conversation.id, request.query.id);
      return sendJson(reply, `[${request.query.id.map((id) => found.get(id) ?? 'null').join(',')}]`);
    },
  );
}

/** The caller's conversation named by `rawId`, or a 404 (another user's is as unknown as a missing one). */
async function conversationOf(
  deps: ConversationEventRouteDeps,
  userId: string,
  rawId: string,
): Promise<AppConversation> {
  const id = conversationIdOf(rawId);
  const conversation = id === undefined ? undefined : await deps.conversations.get(userId, id);
  if (!conversation) throw new NotFoundError(`Conversation not found: ${rawId}`);
  return conversation;
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

function filterOf(query: CountQuery): EventFilter {
  const filter: EventFilter = {};
  const kind = query.kind__eq ?? query.kind;
  if (kind !== undefined) filter.kind = kind.split('.').pop() as string;
  if (query.source !== undefined) filter.source = query.source;
  if (query.timestamp__gte !== undefined) filter.timestampGte = utcOf(query.timestamp__gte) as string;
  if (query.timestamp__lt !== undefined) filter.timestampLt = utcOf(query.timestamp__lt) as string;
  return filter;
}

/** Stored JSON is sent as it is, never parsed and serialized again. */
function sendJson(reply: FastifyReply, json: string): FastifyReply {
  return reply
    .type('application/json; charset=utf-8')
    .serializer((payload) => payload as string)
    .send(json);
}
