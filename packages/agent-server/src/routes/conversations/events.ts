import { InputError, NotFoundError } from '@bosun/http';
import { EVENT_SOURCES, type SendMessageRequest, Success } from '@bosun/protocol';
import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Conversation } from '../../conversations/conversation.ts';
import type { EventFilter } from '../../conversations/repository.ts';
import type { AgentRunner } from '../../conversations/runner.ts';
import { sendUserMessage } from '../../conversations/send-message.ts';
import type { ConversationService } from '../../conversations/service.ts';
import { ConversationIdParams, NotFoundResponse, conversationOf, validationResponse } from '../params.ts';

const tags = ['Events'];
const MAX_BATCH = 1000;

const EventIds = Type.Array(Type.String(), {
  maxItems: MAX_BATCH,
  description: `Event ids to fetch (at most ${MAX_BATCH}).`,
});
const BatchResponse = Type.Array(Type.Union([{ $ref: 'Event#' } as never, Type.Null()]), {
  description: 'The events in the order asked, `null` for each id this conversation has no event for.',
});

const FilterQuery = {
  kind: Type.Optional(
    Type.String({ description: 'Event kind, e.g. `MessageEvent`; a dotted name matches on its last segment.' }),
  ),
  source: Type.Optional(Type.Unsafe<string>({ type: 'string', enum: [...EVENT_SOURCES] })),
  body: Type.Optional(
    Type.String({ description: 'Case-insensitive text in a message (text, extended content, reasoning).' }),
  ),
  timestamp__gte: Type.Optional(Type.String({ format: 'date-time' })),
  timestamp__lt: Type.Optional(Type.String({ format: 'date-time' })),
};
const SearchQuery = Type.Object({
  ...FilterQuery,
  page_id: Type.Optional(Type.String({ description: 'The `next_page_id` of the previous page (inclusive).' })),
  after_event_id: Type.Optional(
    Type.String({ description: 'Only events after this one (exclusive): a resume cursor.' }),
  ),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 100 }),
  sort_order: Type.Unsafe<'TIMESTAMP' | 'TIMESTAMP_DESC'>({
    type: 'string',
    enum: ['TIMESTAMP', 'TIMESTAMP_DESC'],
    default: 'TIMESTAMP',
    description: 'Log order (oldest first) or its reverse.',
  }),
});
type SearchQuery = Static<typeof SearchQuery>;
const CountQuery = Type.Object(FilterQuery);

const EventPage = Type.Object({
  items: Type.Array({ $ref: 'Event#' } as never),
  next_page_id: Type.Union([Type.String(), Type.Null()], { description: 'Id of the first event of the next page.' }),
});

const EventIdParams = Type.Object(
  { ...ConversationIdParams.properties, event_id: Type.String() },
  { additionalProperties: false },
);

function sendJson(reply: FastifyReply, json: string): FastifyReply {
  return reply
    .type('application/json; charset=utf-8')
    .serializer((payload) => payload as string)
    .send(json);
}

function toFilter(query: Static<typeof CountQuery>): EventFilter {
  const filter: EventFilter = {};
  if (query.kind !== undefined) filter.kind = query.kind.split('.').pop() as string;
  if (query.source !== undefined) filter.source = query.source;
  if (query.body !== undefined) filter.body = query.body.toLowerCase();
  if (query.timestamp__gte !== undefined) filter.timestampGte = toUtc(query.timestamp__gte);
  if (query.timestamp__lt !== undefined) filter.timestampLt = toUtc(query.timestamp__lt);
  return filter;
}

/** Normalizes a date-time to the log's format (UTC, `Z`); a time without a zone is read as UTC. */
function toUtc(value: string): string {
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/i.test(value) ? value : `${value}Z`;
  return new Date(zoned).toISOString();
}

function seqOfCursor(conversation: Conversation, service: ConversationService, id: string, param: string): number {
  const seq = service.events.seqOf(conversation.id, id);
  if (seq === undefined) {
    throw new InputError([
      { loc: ['query', param], msg: `No event with id ${id} in this conversation`, type: 'value_error' },
    ]);
  }
  return seq;
}

/** A page of events as JSON, built from the stored JSON without re-serializing it. */
export function searchPage(service: ConversationService, conversation: Conversation, query: SearchQuery): string {
  const descending = query.sort_order === 'TIMESTAMP_DESC';
  const rows = service.events.page(conversation.id, {
    ...toFilter(query),
    descending,
    limit: query.limit + 1,
    ...(query.page_id !== undefined ? { fromSeq: seqOfCursor(conversation, service, query.page_id, 'page_id') } : {}),
    ...(query.after_event_id !== undefined
      ? { afterSeq: seqOfCursor(conversation, service, query.after_event_id, 'after_event_id') }
      : {}),
  });
  const next = rows.length > query.limit ? (rows.pop()?.id ?? null) : null;
  return `{"items":[${rows.map((row) => row.json).join(',')}],"next_page_id":${JSON.stringify(next)}}`;
}

export function eventRoutes(
  app: FastifyInstance,
  { service, runner }: { service: ConversationService; runner: AgentRunner },
): void {
  const batchGet = {
    schema: {
      tags,
      params: ConversationIdParams,
      body: EventIds,
      response: { 200: BatchResponse, 404: NotFoundResponse, 422: validationResponse },
    },
  };
  const batchHandler = async (request: { params: unknown; body: unknown }, reply: FastifyReply) => {
    const conversation = conversationOf(service, request as never);
    const ids = request.body as string[];
    const json = ids.map((id) => service.events.json(conversation.id, id) ?? 'null');
    return sendJson(reply, `[${json.join(',')}]`);
  };
  app.get(
    '/api/conversations/:conversation_id/events',
    {
      ...batchGet,
      exposeHeadRoute: false,
      schema: { ...batchGet.schema, summary: 'Batch get conversation events (JSON body: event ids)' },
    },
    batchHandler,
  );
  app.post(
    '/api/conversations/:conversation_id/events/batch',
    {
      ...batchGet,
      schema: { ...batchGet.schema, summary: 'Batch get conversation events (POST twin for browsers)' },
    },
    batchHandler,
  );

  app.get<{ Querystring: SearchQuery }>(
    '/api/conversations/:conversation_id/events/search',
    {
      schema: {
        tags,
        summary: 'Search and page events',
        params: ConversationIdParams,
        querystring: SearchQuery,
        response: { 200: EventPage, 404: NotFoundResponse, 422: validationResponse },
      },
    },
    async (request, reply) => sendJson(reply, searchPage(service, conversationOf(service, request), request.query)),
  );

  app.get<{ Querystring: Static<typeof CountQuery> }>(
    '/api/conversations/:conversation_id/events/count',
    {
      schema: {
        tags,
        summary: 'Count events',
        params: ConversationIdParams,
        querystring: CountQuery,
        response: { 200: Type.Integer(), 404: NotFoundResponse, 422: validationResponse },
      },
    },
    async (request) => service.events.count(conversationOf(service, request).id, toFilter(request.query)),
  );

  app.get<{ Params: Static<typeof EventIdParams> }>(
    '/api/conversations/:conversation_id/events/:event_id',
    {
      schema: {
        tags,
        summary: 'Get one event',
        params: EventIdParams,
        response: { 200: { $ref: 'Event#' }, 404: NotFoundResponse, 422: validationResponse },
      },
    },
    async (request, reply) => {
      const conversation = conversationOf(service, request);
      const json = service.events.json(conversation.id, request.params.event_id);
      if (json === undefined) throw new NotFoundError(`Event not found: ${request.params.event_id}`);
      return sendJson(reply, json);
    },
  );

  app.post<{ Body: SendMessageRequest }>(
    '/api/conversations/:conversation_id/events',
    {
      schema: {
        tags,
        summary: 'Send a user message (and start a run with `run: true`)',
        params: ConversationIdParams,
        body: { $ref: 'SendMessageRequest#' },
        response: { 200: Success, 404: NotFoundResponse, 422: validationResponse },
      },
    },
    async (request) => {
      await sendUserMessage(conversationOf(service, request), request.body, runner);
      return { success: true };
    },
  );
}
