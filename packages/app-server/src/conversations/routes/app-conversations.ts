import type { AppConversationFilterQuery, AppConversationUpdateRequest, AppSendMessageRequest } from '@bosun/protocol';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, preHandlerAsyncHookHandler } from 'fastify';
import type { ApiRoutes } from '../../http/api-routes.ts';
import { pageOf, pageQuery } from '../../http/pages.ts';
import { shape } from '../../http/replies.ts';
import { routeOptions } from '../../http/route-options.ts';
import { principalOf } from '../../identity/authenticate.ts';
import { AgentServerFailure, type AppConversations } from '../app-conversations.ts';
import {
  ConversationFilterQuery,
  ConversationParams,
  IdsQuery,
  conversationFilters,
  idOf,
  tags,
} from './app-conversation-wire.ts';

const route = routeOptions(...tags);
const SearchQuery = Type.Object({ ...ConversationFilterQuery, ...pageQuery }, { additionalProperties: false });
const CountQuery = Type.Object(ConversationFilterQuery, { additionalProperties: false });
const gone = { 409: 'HTTPError', 410: 'HTTPError', 502: 'HTTPError' };
const success = { success: true };

/** `/api/v1/app-conversations`: the caller's conversations; another user's is 404 (null in a batch). */
export function appConversationRoutes(
  conversations: AppConversations,
  limited: { preHandler?: preHandlerAsyncHookHandler } = {},
): ApiRoutes {
  return (app) => {
    app.get<{ Querystring: IdsQuery }>(
      '/app-conversations',
      route('The caller’s conversations by id (null for each unknown or not theirs)', {
        querystring: IdsQuery,
        response: { 200: Type.Array(Type.Union([shape('AppConversation'), Type.Null()])) },
      }),
      (request) => conversations.getMany(principalOf(request).userId, request.query.ids.map(idOf)),
    );

    app.get<{ Querystring: AppConversationFilterQuery & { page_id?: string; limit?: number } }>(
      '/app-conversations/search',
      route('The caller’s conversations, newest first', {
        querystring: SearchQuery,
        response: { 200: 'AppConversationPage' },
      }),
      (request) => {
        const { page_id, limit = 100 } = request.query;
        const filters = conversationFilters(request.query);
        const page = { limit, ...(page_id ? { pageId: page_id } : {}) };
        return pageOf(
          (item) => item,
          () => conversations.search(principalOf(request).userId, filters, page),
        );
      },
    );

    app.get<{ Querystring: AppConversationFilterQuery }>(
      '/app-conversations/count',
      route('How many of the caller’s conversations pass the filters', {
        querystring: CountQuery,
        response: { 200: Type.Integer() },
      }),
      (request) => conversations.count(principalOf(request).userId, conversationFilters(request.query)),
    );

    app.patch<{ Params: ConversationParams; Body: AppConversationUpdateRequest }>(
      '/app-conversations/:conversation_id',
      route('Change a conversation (a new title also goes to its agent server while it runs)', {
        params: ConversationParams,
        body: shape('AppConversationUpdateRequest'),
        response: { 200: 'AppConversation' },
      }),
      (request) =>
        conversations.update(principalOf(request).userId, idOf(request.params.conversation_id), request.body),
    );

    app.delete<{ Params: ConversationParams }>(
      '/app-conversations/:conversation_id',
      route('Delete a conversation (and its sandbox when no other conversation uses it)', {
        params: ConversationParams,
        response: { 200: 'SuccessResponse' },
      }),
      async (request) => {
        await conversations.delete(principalOf(request).userId, idOf(request.params.conversation_id));
        return success;
      },
    );

    app.post<{ Params: ConversationParams; Body: AppSendMessageRequest }>(
      '/app-conversations/:conversation_id/send-message',
      route('Send a message to the conversation’s agent (409: its sandbox does not run; 410: it is gone)', {
        params: ConversationParams,
        body: shape('AppSendMessageRequest'),
        response: { 200: 'AppSendMessageResponse', ...gone },
      }),
      (request, reply) =>
        upstream(reply, () =>
          conversations.sendMessage(principalOf(request).userId, idOf(request.params.conversation_id), request.body),
        ),
    );

    app.post<{ Params: ConversationParams }>(
      '/app-conversations/:conversation_id/pause',
      route('Pause the conversation: its sandbox, or only its agent when other conversations share the sandbox', {
        params: ConversationParams,
        response: { 200: 'SuccessResponse', ...gone },
      }),
      (request, reply) =>
        upstream(reply, async () => {
          await conversations.pause(principalOf(request).userId, idOf(request.params.conversation_id));
          return success;
        }),
    );

    app.post<{ Params: ConversationParams }>(
      '/app-conversations/:conversation_id/resume',
      {
        ...route('Resume the conversation’s sandbox (over its workspace, with a new session key)', {
          params: ConversationParams,
          response: { 200: 'SuccessResponse', 429: 'HTTPError', ...gone },
        }),
        ...limited,
      },
      (request, reply) =>
        upstream(reply, async () => {
          await conversations.resume(principalOf(request).userId, idOf(request.params.conversation_id));
          return success;
        }),
    );
  };
}

/** What `act` answers; a failure of the sandbox or its agent server is a 502 saying what failed. */
export async function upstream<T>(reply: FastifyReply, act: () => Promise<T>) {
  try {
    return await act();
  } catch (error) {
    if (error instanceof AgentServerFailure) return reply.code(502).send({ detail: error.message });
    throw error;
  }
}
