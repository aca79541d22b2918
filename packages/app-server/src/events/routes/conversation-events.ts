import { NotFoundError } from '@bosun/http';
import { type Static, Type } from '@sinclair/typebox';
import type { AppConversation, EventsRepository, Repositories } from '../../data/index.ts';
import type { ApiRoutes } from '../../http/api-routes.ts';
import { shape } from '../../http/replies.ts';
import { routeOptions } from '../../http/route-options.ts';
import { principalOf } from '../../identity/authenticate.ts';
import { BatchQuery } from '../../sandboxes/routes/sandbox-wire.ts';
import { conversationIdOf } from '../conversation-ids.ts';
import {
  EventFilterQuery,
  EventSearchQuery,
  eventFilterOf,
  eventPageJson,
  eventPageOf,
  sendJson,
} from './event-queries.ts';

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

const SearchQuery = Type.Object(EventSearchQuery, { additionalProperties: false });
const CountQuery = Type.Object(EventFilterQuery, { additionalProperties: false });

export interface ConversationEventRouteDeps {
  conversations: Pick<Repositories['conversations'], 'get'>;
  events: EventsRepository;
}

/**
 * `/api/v1/conversation/{id}/events/search|count` and the batch get, from the app's own store (so they answer
 * while the sandbox is paused or gone). Pages follow the conversation's order (the app's sequence), never time.
 */
export function conversationEventRoutes(deps: ConversationEventRouteDeps): ApiRoutes {
  return (app) => {
    const { events } = deps;
    app.get<{ Params: ConversationIdParams; Querystring: EventSearchQuery }>(
      '/conversation/:conversation_id/events/search',
      route('Search a conversation’s events, a page at a time', {
        params: ConversationIdParams,
        querystring: SearchQuery,
        response: { 200: 'EventPage' },
      }),
      async (request, reply) => {
        const { userId } = principalOf(request);
        const conversation = await conversationOf(deps, userId, request.params.conversation_id);
        const page = await eventPageOf(events, userId, conversation.id, request.query);
        return sendJson(reply, eventPageJson(page));
      },
    );

    app.get<{ Params: ConversationIdParams; Querystring: EventFilterQuery }>(
      '/conversation/:conversation_id/events/count',
      route('Count a conversation’s events', {
        params: ConversationIdParams,
        querystring: CountQuery,
        response: { 200: Type.Integer() },
      }),
      async (request) => {
        const { userId } = principalOf(request);
        const conversation = await conversationOf(deps, userId, request.params.conversation_id);
        return events.count(userId, conversation.id, eventFilterOf(request.query));
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
  };
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
