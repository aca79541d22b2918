import { AppConversationFileQuery, AppConversationGitChangesQuery, AppConversationGitDiffQuery } from '@bosun/protocol';
import { type TSchema, Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { ApiRoutes } from '../../http/api-routes.ts';
import { shape } from '../../http/replies.ts';
import { routeOptions } from '../../http/route-options.ts';
import { principalOf } from '../../identity/authenticate.ts';
import { type ExportDeps, exportConversation } from '../conversation-export.ts';
import { ConversationWorkspace } from '../conversation-workspace.ts';
import { ConversationParams, idOf, tags } from './app-conversation-wire.ts';

const route = routeOptions(...tags);
/** The sandbox does not run (409: resume it), is gone (410), or its agent server failed (502). */
const reached = { 409: 'HTTPError', 410: 'HTTPError', 502: 'HTTPError' };
const ZIP = {
  description: 'The zip: `meta.json` and one `event_<n>_<id>.json` per event.',
  content: { 'application/zip': { schema: { type: 'string', contentMediaType: 'application/zip' } } },
} as unknown as TSchema;

/**
 * `/api/v1/app-conversations/{id}/file|git/changes|git/diff|skills|hooks` (through the conversation's agent server)
 * and `/download` (from what the app stores): the caller's conversation only, another user's is 404.
 */
export function conversationWorkspaceRoutes(deps: ExportDeps): ApiRoutes {
  return (app) => {
    const workspace = new ConversationWorkspace(deps);
    const caller = (request: FastifyRequest<{ Params: ConversationParams }>) => ({
      userId: principalOf(request).userId,
      id: idOf(request.params.conversation_id),
    });

    app.get<{ Params: ConversationParams; Querystring: AppConversationFileQuery }>(
      '/app-conversations/:conversation_id/file',
      route('Read a file of the conversation’s workspace as text (relative: to its working directory)', {
        params: ConversationParams,
        querystring: AppConversationFileQuery,
        response: { 200: Type.String(), 403: 'HTTPError', 413: 'HTTPError', 415: 'HTTPError', ...reached },
      }),
      (request) => {
        const { userId, id } = caller(request);
        return workspace.readFile(userId, id, request.query.file_path);
      },
    );

    app.get<{ Params: ConversationParams; Querystring: AppConversationGitChangesQuery }>(
      '/app-conversations/:conversation_id/git/changes',
      route('The Git changes of a repository of the conversation’s workspace (default: its working directory)', {
        params: ConversationParams,
        querystring: AppConversationGitChangesQuery,
        response: { 200: Type.Array(shape('GitChange')), 403: 'HTTPError', ...reached },
      }),
      (request) => {
        const { userId, id } = caller(request);
        return workspace.gitChanges(userId, id, request.query);
      },
    );

    app.get<{ Params: ConversationParams; Querystring: AppConversationGitDiffQuery }>(
      '/app-conversations/:conversation_id/git/diff',
      route('A file of the conversation’s workspace as it is and at a Git ref (default HEAD)', {
        params: ConversationParams,
        querystring: AppConversationGitDiffQuery,
        response: { 200: 'GitDiff', 403: 'HTTPError', ...reached },
      }),
      (request) => {
        const { userId, id } = caller(request);
        return workspace.gitDiff(userId, id, request.query);
      },
    );

    /** The reads of what the conversation's agent has: its route's last segment, summary, answer and read. */
    const agentReads: [string, string, string, (userId: string, id: string) => Promise<unknown>][] = [
      [
        'skills',
        'The skills the conversation’s agent loads',
        'AppConversationSkills',
        (userId, id) => workspace.skills(userId, id),
      ],
      [
        'hooks',
        'The hooks the conversation’s working directory declares (`.openhands/hooks.json`), by event',
        'AppConversationHooks',
        (userId, id) => workspace.hooks(userId, id),
      ],
    ];
    for (const [name, summary, answer, read] of agentReads) {
      app.get<{ Params: ConversationParams }>(
        `/app-conversations/:conversation_id/${name}`,
        route(summary, { params: ConversationParams, response: { 200: answer, ...reached } }),
        (request) => {
          const { userId, id } = caller(request);
          return read(userId, id);
        },
      );
    }

    app.get<{ Params: ConversationParams }>(
      '/app-conversations/:conversation_id/download',
      route('Export the conversation as a zip (from the app’s store: also while its sandbox is paused or gone)', {
        params: ConversationParams,
        response: { 200: ZIP },
      }),
      async (request, reply) => {
        const { userId, id } = caller(request);
        const { zip, name } = await exportConversation(deps, userId, id);
        return reply
          .header('content-type', 'application/zip')
          .header('content-disposition', `attachment; filename="${name}"`)
          .header('x-content-type-options', 'nosniff')
          .send(zip);
      },
    );
  };
}
