import { type AppConversation, conversationIdPattern } from '@bosun/protocol';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiRoutes } from '../../http/api-routes.ts';
import { legacyConversationInfo } from './conversation-info.ts';
import { type V1Answer, callV1, legacyRoute, openShape, queryOf, relay, succeeded } from './forward.ts';

const ID = new RegExp(conversationIdPattern);
const Params = Type.Object(
  { conversation_id: Type.String({ minLength: 1, maxLength: 100, description: 'The conversation’s id.' }) },
  { additionalProperties: false },
);
type Params = { conversation_id: string };
const ListQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Items per page (default 20).' })),
    page_id: Type.Optional(Type.String({ maxLength: 1000, description: 'The `next_page_id` of the page before.' })),
  },
  { additionalProperties: false },
);
const Rename = Type.Object(
  { title: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', description: 'The new title.' }) },
  { additionalProperties: false },
);
const info = openShape('OpenHands’ `ConversationInfo` (`conversation_version: "V1"`, `url`, `session_api_key`).');
const NOT_FOUND = { detail: 'Conversation not found' };
type Found = { conversation: AppConversation } | { refused: V1Answer } | null;

/**
 * OpenHands' conversation routes outside `/api/v1`, which its web client still calls to list, open, rename and
 * delete conversations, over `/api/v1/app-conversations`. Any other id than a conversation's (`task-<uuid>`, which
 * the client asks while a start runs) and another user's conversation are a 404, which the client treats as it
 * treats OpenHands' `null`.
 */
export function legacyConversationRoutes(app: FastifyInstance): ApiRoutes {
  return (routes) => {
    /** The conversation of the path, the V1 route's refusal (no credentials...), or null when there is none. */
    const one = async (request: FastifyRequest<{ Params: Params }>): Promise<Found> => {
      const id = request.params.conversation_id;
      if (!ID.test(id)) return null;
      const answer = await callV1(app, request, { url: `/api/v1/app-conversations${queryOf({ ids: id })}` });
      if (!succeeded(answer)) return { refused: answer };
      const conversation = answer.body[0] as AppConversation | null;
      return conversation && { conversation };
    };
    const answer = (reply: FastifyReply, found: Found, send: (conversation: AppConversation) => unknown) => {
      if (found === null) return reply.code(404).send(NOT_FOUND);
      return 'refused' in found ? relay(reply, found.refused) : send(found.conversation);
    };

    routes.get<{ Querystring: { limit?: number; page_id?: string } }>(
      '/api/conversations',
      legacyRoute(
        'The caller’s conversations, newest first, as OpenHands’ `ConversationInfoResultSet`',
        'GET /api/v1/app-conversations/search',
        {
          querystring: ListQuery,
          response: { 200: openShape('`{"results": ConversationInfo[], "next_page_id": string | null}`.') },
        },
      ),
      async (request, reply) => {
        const { limit = 20, page_id } = request.query;
        const url = `/api/v1/app-conversations/search${queryOf({ limit, page_id })}`;
        const searched = await callV1(app, request, { url });
        if (!succeeded(searched)) return relay(reply, searched);
        const page = searched.body as { items: AppConversation[]; next_page_id: string | null };
        return { results: page.items.map(legacyConversationInfo), next_page_id: page.next_page_id };
      },
    );

    routes.get<{ Params: Params }>(
      '/api/conversations/:conversation_id',
      legacyRoute(
        'One of the caller’s conversations as OpenHands’ `ConversationInfo`',
        'GET /api/v1/app-conversations?ids=',
        {
          params: Params,
          response: { 200: info },
        },
      ),
      async (request, reply) => answer(reply, await one(request), legacyConversationInfo),
    );

    routes.get<{ Params: Params }>(
      '/api/conversations/:conversation_id/config',
      legacyRoute('The conversation’s runtime and session ids', 'GET /api/v1/app-conversations?ids=', {
        params: Params,
        response: { 200: openShape('`{"runtime_id": its sandbox id, "session_id": its id}`.') },
      }),
      async (request, reply) =>
        answer(reply, await one(request), (conversation) => ({
          runtime_id: conversation.sandbox_id,
          session_id: conversation.id,
        })),
    );

    routes.patch<{ Params: Params; Body: { title: string } }>(
      '/api/conversations/:conversation_id',
      legacyRoute('Rename a conversation; answers `true`', 'PATCH /api/v1/app-conversations/{id}', {
        params: Params,
        body: Rename,
        response: { 200: Type.Boolean() },
      }),
      async (request, reply) => {
        const id = request.params.conversation_id;
        if (!ID.test(id)) return reply.code(404).send(NOT_FOUND);
        const body = { title: request.body.title.trim() };
        const renamed = await callV1(app, request, { method: 'PATCH', url: `/api/v1/app-conversations/${id}`, body });
        return succeeded(renamed) ? true : relay(reply, renamed);
      },
    );

    routes.delete<{ Params: Params }>(
      '/api/conversations/:conversation_id',
      legacyRoute(
        'Delete a conversation (and its sandbox when no other uses it); answers `true`',
        'DELETE /api/v1/app-conversations/{id}',
        {
          params: Params,
          response: { 200: Type.Boolean() },
        },
      ),
      async (request, reply) => {
        const id = request.params.conversation_id;
        if (!ID.test(id)) return reply.code(404).send(NOT_FOUND);
        const deleted = await callV1(app, request, { method: 'DELETE', url: `/api/v1/app-conversations/${id}` });
        return succeeded(deleted) ? true : relay(reply, deleted);
      },
    );
  };
}
