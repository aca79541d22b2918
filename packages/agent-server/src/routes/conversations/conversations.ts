import { ConflictError, InputError } from '@bosun/http';
import {
  type AgentSpec,
  ConversationExecutionStatus,
  type StartConversationRequest,
  Success,
  type UpdateConversationRequest,
} from '@bosun/protocol';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { conversationInfo } from '../../conversations/info.ts';
import type { AgentRunner } from '../../conversations/runner.ts';
import { ConversationBusyError, pause, startRun } from '../../conversations/runs.ts';
import { CONVERSATION_SORT_ORDERS, type ConversationService } from '../../conversations/service.ts';
import { updateTitleAndTags } from '../../conversations/settings.ts';
import { startConversation } from '../../conversations/start.ts';
import { ConversationIdParams, NotFoundResponse, componentRef, conversationOf, validationResponse } from '../params.ts';

const tags = ['Conversations'];

const ConversationPage = Type.Object({
  items: Type.Array(componentRef('ConversationInfo')),
  next_page_id: Type.Union([Type.String(), Type.Null()], { description: 'Id of the first item of the next page.' }),
});

export interface ConversationRouteDeps {
  service: ConversationService;
  runner: AgentRunner;
  /** The agent of conversations started without one, if the server has a default model. */
  defaultAgent?: () => AgentSpec;
  /** When set, `working_dir` must be inside it. */
  workspaceRoot?: string;
}

export function conversationRoutes(
  app: FastifyInstance,
  { service, runner, defaultAgent, workspaceRoot }: ConversationRouteDeps,
): void {
  app.post<{ Body: StartConversationRequest }>(
    '/api/conversations',
    {
      schema: {
        tags,
        summary: 'Start a conversation (idempotent on conversation_id)',
        body: defaultAgent
          ? componentRef('StartConversationRequest')
          : Type.Unsafe({
              allOf: [{ $ref: 'StartConversationRequest#' }],
              required: ['agent'],
              description: 'This server has no default model (BOSUN_LLM_MODEL), so `agent` is required.',
            }),
        response: {
          200: componentRef('ConversationInfo'),
          201: componentRef('ConversationInfo'),
          422: validationResponse,
        },
      },
    },
    async (request, reply) => {
      // The body schema requires `agent` when there is no default one.
      const agent = request.body.agent ?? (defaultAgent as () => AgentSpec)();
      const body = { ...request.body, agent };
      const { conversation, created } = await startConversation(service, runner, body, workspaceRoot);
      return reply.code(created ? 201 : 200).send(conversationInfo(conversation));
    },
  );

  app.get<{
    Querystring: {
      page_id?: string;
      limit: number;
      status?: ConversationExecutionStatus;
      sort_order: (typeof CONVERSATION_SORT_ORDERS)[number];
    };
  }>(
    '/api/conversations/search',
    {
      schema: {
        tags,
        summary: 'Search conversations',
        querystring: Type.Object({
          page_id: Type.Optional(Type.String({ description: 'The `next_page_id` of the previous page.' })),
          limit: Type.Integer({ minimum: 1, maximum: 100, default: 100 }),
          status: Type.Optional(ConversationExecutionStatus),
          sort_order: Type.Unsafe({ type: 'string', enum: [...CONVERSATION_SORT_ORDERS], default: 'CREATED_AT_DESC' }),
        }),
        response: { 200: ConversationPage, 422: validationResponse },
      },
    },
    async (request) => {
      const { page_id, limit, status, sort_order } = request.query;
      const page = service.search({ pageId: page_id, limit, status, sortOrder: sort_order });
      if (!page) {
        throw new InputError([{ loc: ['query', 'page_id'], msg: `Unknown page_id: ${page_id}`, type: 'value_error' }]);
      }
      const items = page.ids.flatMap((id) => {
        const conversation = service.get(id);
        return conversation ? [conversationInfo(conversation)] : [];
      });
      return { items, next_page_id: page.nextPageId };
    },
  );

  app.get<{ Querystring: { status?: ConversationExecutionStatus } }>(
    '/api/conversations/count',
    {
      schema: {
        tags,
        summary: 'Count conversations',
        querystring: Type.Object({ status: Type.Optional(ConversationExecutionStatus) }),
        response: { 200: Type.Integer(), 422: validationResponse },
      },
    },
    async (request) => service.count(request.query.status),
  );

  app.get<{ Querystring: { ids: string[] } }>(
    '/api/conversations',
    {
      schema: {
        tags,
        summary: 'Get conversations by id (null for each unknown id)',
        querystring: Type.Object({
          ids: Type.Array(Type.String({ format: 'uuid' }), { minItems: 1, maxItems: 100 }),
        }),
        response: {
          200: Type.Array(Type.Union([componentRef('ConversationInfo'), Type.Null()])),
          422: validationResponse,
        },
      },
    },
    async (request) =>
      request.query.ids.map((id) => {
        const conversation = service.get(id);
        return conversation ? conversationInfo(conversation) : null;
      }),
  );

  app.get(
    '/api/conversations/:conversation_id',
    {
      schema: {
        tags,
        summary: 'Get a conversation',
        params: ConversationIdParams,
        response: { 200: componentRef('ConversationInfo'), 404: NotFoundResponse, 422: validationResponse },
      },
    },
    async (request) => conversationInfo(conversationOf(service, request)),
  );

  app.patch<{ Body: UpdateConversationRequest }>(
    '/api/conversations/:conversation_id',
    {
      schema: {
        tags,
        summary: 'Change the title or replace the tags',
        params: ConversationIdParams,
        body: componentRef('UpdateConversationRequest'),
        response: { 200: Success, 404: NotFoundResponse, 422: validationResponse },
      },
    },
    async (request) => {
      await updateTitleAndTags(conversationOf(service, request), request.body);
      return { success: true };
    },
  );

  app.delete(
    '/api/conversations/:conversation_id',
    {
      schema: {
        tags,
        summary: 'Delete a conversation and its events',
        params: ConversationIdParams,
        response: { 200: Success, 404: NotFoundResponse, 422: validationResponse },
      },
    },
    async (request) => {
      await service.delete(conversationOf(service, request).id);
      return { success: true };
    },
  );

  app.post(
    '/api/conversations/:conversation_id/run',
    {
      schema: {
        tags,
        summary: 'Start a run (409 while one is in progress)',
        params: ConversationIdParams,
        response: { 200: Success, 404: NotFoundResponse, 409: NotFoundResponse, 422: validationResponse },
      },
    },
    async (request) => {
      try {
        await startRun(conversationOf(service, request), runner);
      } catch (error) {
        if (error instanceof ConversationBusyError) throw new ConflictError(error.message);
        throw error;
      }
      return { success: true };
    },
  );

  app.post(
    '/api/conversations/:conversation_id/pause',
    {
      schema: {
        tags,
        summary: 'Pause the agent (between steps)',
        params: ConversationIdParams,
        response: { 200: Success, 404: NotFoundResponse, 422: validationResponse },
      },
    },
    async (request) => {
      await pause(conversationOf(service, request));
      return { success: true };
    },
  );
}
