import { NotFoundError, refuseNulText } from '@bosun/http';
import { conversationIdPattern } from '@bosun/protocol';
import { type Static, Type } from '@sinclair/typebox';
import type { preHandlerAsyncHookHandler } from 'fastify';
import {
  EventFilterQuery,
  EventSearchQuery,
  eventFilterOf,
  eventPageJson,
  eventPageOf,
  sendJson,
} from '../../events/routes/event-queries.ts';
import type { ApiRoutes } from '../../http/api-routes.ts';
import { shape } from '../../http/replies.ts';
import { DEFAULT_RATE_LIMITS, type RateLimiter, type RateLimits, rateLimited } from '../../identity/rate-limits.ts';
import { BatchQuery } from '../../sandboxes/routes/sandbox-wire.ts';
import { type OpenedShare, type SharedConversationDeps, SharedConversations } from '../shared-conversations.ts';
import { IdsQuery, idOf } from './app-conversation-wire.ts';

const conversationId = Type.String({ pattern: conversationIdPattern, description: 'A UUID, dashed or 32 hex digits.' });
const SearchQuery = Type.Object(
  { conversation_id: conversationId, ...EventSearchQuery },
  { additionalProperties: false },
);
const CountQuery = Type.Object(
  { conversation_id: conversationId, ...EventFilterQuery },
  { additionalProperties: false },
);
const EventsQuery = Type.Object(
  { conversation_id: conversationId, id: BatchQuery.properties.id },
  { additionalProperties: false },
);
const EventParams = Type.Object(
  { conversation_id: conversationId, event_id: Type.String({ minLength: 1, maxLength: 255 }) },
  { additionalProperties: false },
);

const NO_CONVERSATION = 'Shared conversation not found';
const NO_EVENT = 'Shared event not found';

export interface SharedRouteDeps extends SharedConversationDeps {
  rateLimiter: RateLimiter;
  /** The limits (`shared_read`: every read here, per client address); default: `DEFAULT_RATE_LIMITS`. */
  rateLimits?: RateLimits;
}

/** A route's options: no credentials (`security: []`), each read counted against the caller's address. */
function sharedRoute(limit: preHandlerAsyncHookHandler, summary: string, schema: Record<string, unknown>) {
  const errors = { 404: shape('HTTPError'), 422: shape('HTTPValidationError'), 429: shape('HTTPError') };
  const response = { ...errors, ...(schema.response as object) };
  return { schema: { tags: ['Sharing'], summary, security: [], ...schema, response }, preHandler: limit };
}

/**
 * OpenHands' read-only sharing, at its paths (outside `/api/v1`, without credentials): a conversation its owner
 * made public (`PATCH /api/v1/app-conversations/{id}` with `public: true`) and its events, from the app's own
 * store, its owner's secret values masked. A private, deleted or unknown conversation answers alike: null in a
 * batch, 404 otherwise, so that nobody learns which ids exist.
 */
export function sharedConversationRoutes(deps: SharedRouteDeps): ApiRoutes {
  return (app) => {
    const shared = new SharedConversations(deps);
    const { events } = deps.repositories;
    const limit = rateLimited(deps.rateLimiter, deps.rateLimits ?? DEFAULT_RATE_LIMITS, 'shared_read');
    const route = (summary: string, schema: Record<string, unknown>) => sharedRoute(limit, summary, schema);
    const opened = async (rawId: string): Promise<OpenedShare> => {
      const share = await shared.open(idOf(rawId));
      if (!share) throw new NotFoundError(NO_CONVERSATION);
      return share;
    };

    app.get<{ Querystring: IdsQuery }>(
      '/api/shared-conversations',
      route('Shared conversations by id (null for each unknown or not shared)', {
        querystring: IdsQuery,
        response: { 200: Type.Array(Type.Union([shape('SharedConversation'), Type.Null()])) },
      }),
      (request) => shared.getMany(request.query.ids.map(idOf)),
    );

    app.get<{ Querystring: Static<typeof SearchQuery> }>(
      '/api/shared-events/search',
      route('Search a shared conversation’s events, a page at a time', {
        querystring: SearchQuery,
        response: { 200: shape('EventPage') },
      }),
      async (request, reply) => {
        const share = await opened(request.query.conversation_id);
        const page = await eventPageOf(events, share.ownerId, share.id, request.query);
        return sendJson(
          reply,
          eventPageJson(page, (row) => share.mask(row.json)),
        );
      },
    );

    app.get<{ Querystring: Static<typeof CountQuery> }>(
      '/api/shared-events/count',
      route('Count a shared conversation’s events', { querystring: CountQuery, response: { 200: Type.Integer() } }),
      async (request) => {
        const share = await opened(request.query.conversation_id);
        return events.count(share.ownerId, share.id, eventFilterOf(request.query));
      },
    );

    app.get<{ Querystring: Static<typeof EventsQuery> }>(
      '/api/shared-events',
      route('A shared conversation’s events by id (null for each unknown, all null when it is not shared)', {
        querystring: EventsQuery,
        response: { 200: Type.Array(Type.Union([shape('Event'), Type.Null()])) },
      }),
      async (request, reply) => {
        const { conversation_id, id: ids } = request.query;
        const share = await shared.open(idOf(conversation_id));
        const found = share ? await events.byIds(share.ownerId, share.id, ids) : new Map<string, string>();
        const json = ids.map((id) => {
          const event = found.get(id);
          return event === undefined || !share ? 'null' : share.mask(event);
        });
        return sendJson(reply, `[${json.join(',')}]`);
      },
    );

    app.get<{ Params: Static<typeof EventParams> }>(
      '/api/shared-events/:conversation_id/:event_id',
      route('One event of a shared conversation', { params: EventParams, response: { 200: shape('Event') } }),
      async (request, reply) => {
        const share = await shared.open(idOf(request.params.conversation_id));
        const event = share && (await events.byIds(share.ownerId, share.id, [request.params.event_id]));
        const json = event?.get(request.params.event_id);
        if (!share || json === undefined) throw new NotFoundError(NO_EVENT);
        return sendJson(reply, share.mask(json));
      },
    );
  };
}

/** The shared routes as a module of their own (NUL characters refused as in `/api/v1`). */
export function sharedApi(deps: SharedRouteDeps): ApiRoutes {
  return async (app, context) => {
    await app.register(async (scope) => {
      refuseNulText(scope);
      sharedConversationRoutes(deps)(scope, context);
    });
  };
}
