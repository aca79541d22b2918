import { PassThrough } from 'node:stream';
import {
  type AppConversationStartRequest,
  type AppConversationStartTask,
  type StartTaskFilterQuery,
  conversationIdPattern,
} from '@bosun/protocol';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Repositories, StartTaskOrder } from '../../data/index.ts';
import type { ApiRoutes } from '../../http/api-routes.ts';
import { pageOf, pageQuery } from '../../http/pages.ts';
import { shape } from '../../http/replies.ts';
import { routeOptions } from '../../http/route-options.ts';
import { principalOf } from '../../identity/authenticate.ts';
import { PluginTrustRequiredError } from '../../trust/index.ts';
import { startRequestOf } from '../start-fields.ts';
import { startTaskOf } from '../start-request.ts';
import type { StartTasks, Starter } from '../start-tasks.ts';
import { idOf, tags, utc } from './app-conversation-wire.ts';

const route = routeOptions(...tags);
const TaskIdsQuery = Type.Object(
  { ids: Type.Array(Type.String({ pattern: conversationIdPattern }), { minItems: 1, maxItems: 100 }) },
  { additionalProperties: false },
);
const filterQuery = {
  conversation_id__eq: Type.Optional(
    Type.String({ pattern: conversationIdPattern, description: 'Started this conversation.' }),
  ),
  created_at__gte: Type.Optional(Type.String({ format: 'date-time', description: 'Created at or after.' })),
};
const SearchQuery = Type.Object(
  { ...filterQuery, sort_order: Type.Optional(shape('AppConversationStartTaskSortOrder')), ...pageQuery },
  { additionalProperties: false },
);
const CountQuery = Type.Object(filterQuery, { additionalProperties: false });

const FINISHED = new Set(['READY', 'ERROR']);
/** A start's own refusals: too many starts, and plugins from sources not yet trusted. */
const startRefusals = { 409: 'PluginTrustRequired', 429: 'HTTPError' };

export interface StartTaskRouteDeps {
  tasks: StartTasks;
  startTasks: Repositories['startTasks'];
  /** What limits starts per user (they start sandboxes): 429 with `Retry-After` past it. */
  startLimit?: preHandlerAsyncHookHandler;
}

/**
 * Starting conversations: `POST /app-conversations` answers the WORKING task at once; `stream-start` answers a
 * JSON array of the task at each step, ending at READY or ERROR; the tasks are read by id, searched and counted.
 */
export function startTaskRoutes({ tasks, startTasks, startLimit }: StartTaskRouteDeps): ApiRoutes {
  return (app) => {
    const limited = startLimit ? { preHandler: startLimit } : {};
    const body = shape('AppConversationStartRequest');

    app.post<{ Body: AppConversationStartRequest }>(
      '/app-conversations',
      {
        ...route('Start a conversation: answers its start task at once; poll it (or use stream-start)', {
          body,
          response: { 200: 'AppConversationStartTask', ...startRefusals },
        }),
        ...limited,
      },
      async (request, reply) => {
        const start = await started(tasks, request, reply);
        if (!start) return reply;
        start.run();
        return start.task;
      },
    );

    app.post<{ Body: AppConversationStartRequest }>(
      '/app-conversations/stream-start',
      {
        ...route(
          'Start a conversation, streaming its start task at each step (a JSON array ending at READY or ERROR)',
          {
            body,
            response: { 200: Type.Array(shape('AppConversationStartTask')), ...startRefusals },
          },
        ),
        ...limited,
      },
      async (request, reply) => {
        const start = await started(tasks, request, reply);
        if (!start) return reply;
        const { task } = start;
        const stream = new PassThrough();
        stream.write(`[\n${JSON.stringify(task)}`);
        let ended = false;
        let unsubscribe: (() => Promise<void>) | undefined;
        const stop = () => {
          ended = true;
          const ending = unsubscribe;
          unsubscribe = undefined;
          void ending?.();
        };
        unsubscribe = await tasks.follow(task.id, (next: AppConversationStartTask) => {
          if (ended) return;
          stream.write(`,\n${JSON.stringify(next)}`);
          if (!FINISHED.has(next.status)) return;
          stream.end('\n]');
          stop();
        });
        // The caller went away (or the answer ended): the task runs on, unfollowed.
        reply.raw.once('close', stop);
        start.run();
        return reply.type('application/json').send(stream);
      },
    );

    app.get<{ Querystring: { ids: string[] } }>(
      '/app-conversations/start-tasks',
      route('The caller’s start tasks by id (null for each unknown or not theirs)', {
        querystring: TaskIdsQuery,
        response: { 200: Type.Array(Type.Union([shape('AppConversationStartTask'), Type.Null()])) },
      }),
      async (request) => {
        const ids = request.query.ids.map(idOf);
        const found = await startTasks.getMany(principalOf(request).userId, ids);
        const byId = new Map(found.map((record) => [record.id, startTaskOf(record)]));
        return ids.map((id) => byId.get(id) ?? null);
      },
    );

    app.get<{ Querystring: StartTaskFilterQuery & { sort_order?: StartTaskOrder; page_id?: string; limit?: number } }>(
      '/app-conversations/start-tasks/search',
      route('The caller’s start tasks (newest first unless `sort_order` says otherwise)', {
        querystring: SearchQuery,
        response: { 200: 'AppConversationStartTaskPage' },
      }),
      (request) => {
        const { sort_order = 'CREATED_AT_DESC', page_id, limit = 100 } = request.query;
        const page = { limit, ...(page_id ? { pageId: page_id } : {}) };
        const userId = principalOf(request).userId;
        return pageOf(startTaskOf, () => startTasks.search(userId, filtersOf(request.query), sort_order, page));
      },
    );

    app.get<{ Querystring: StartTaskFilterQuery }>(
      '/app-conversations/start-tasks/count',
      route('How many of the caller’s start tasks pass the filters', {
        querystring: CountQuery,
        response: { 200: Type.Integer() },
      }),
      (request) => startTasks.count(principalOf(request).userId, filtersOf(request.query)),
    );
  };
}

function starterOf(request: FastifyRequest): Starter {
  const principal = principalOf(request);
  return { userId: principal.userId, orgId: principal.org?.id ?? null };
}

function filtersOf(query: StartTaskFilterQuery) {
  return {
    ...(query.conversation_id__eq ? { conversationId: idOf(query.conversation_id__eq) } : {}),
    ...(query.created_at__gte ? { createdAtGte: utc(query.created_at__gte) as string } : {}),
  };
}

/** The request's start task (WORKING) and how to run it; null once a refusal is sent. */
async function started(
  tasks: StartTasks,
  request: FastifyRequest<{ Body: AppConversationStartRequest }>,
  reply: FastifyReply,
): Promise<{ task: AppConversationStartTask; run: () => void } | null> {
  const starter = starterOf(request);
  const body = startRequestOf(request.body);
  const admitted = await admit(tasks, starter, body, reply);
  if (!admitted) return null;
  const task = await tasks.create(starter, body, admitted);
  return { task, run: () => tasks.run(task, starter, admitted) };
}

/** The request as it may start (`StartTasks.admit`); null once a 409 naming the sources to trust is sent. */
async function admit(
  tasks: StartTasks,
  starter: Starter,
  body: AppConversationStartRequest,
  reply: FastifyReply,
): Promise<AppConversationStartRequest | null> {
  try {
    return await tasks.admit(starter, body);
  } catch (error) {
    if (!(error instanceof PluginTrustRequiredError)) throw error;
    await reply.code(409).send({ detail: error.message, sources: error.sources });
    return null;
  }
}
