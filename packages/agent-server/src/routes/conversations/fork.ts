import type { ForkConversationRequest } from '@bosun/protocol';
import type { FastifyInstance } from 'fastify';
import { conversationInfo } from '../../conversations/info.ts';
import type { ConversationService } from '../../conversations/service.ts';
import { conversationStateDir } from '../../conversations/state-dir.ts';
import { ConversationIdParams, NotFoundResponse, componentRef, conversationOf, validationResponse } from '../params.ts';

/** `POST /api/conversations/{id}/fork` (OpenHands'): 201 with the fork's info. */
export function forkRoutes(app: FastifyInstance, deps: { service: ConversationService; dataDir: string }): void {
  app.post<{ Body: ForkConversationRequest }>(
    '/api/conversations/:conversation_id/fork',
    {
      schema: {
        tags: ['Conversations'],
        summary: 'Fork a conversation: a new idle one with a copy of its events (404 unknown from_event_id)',
        params: ConversationIdParams,
        body: componentRef('ForkConversationRequest'),
        response: {
          201: componentRef('ConversationInfo'),
          404: NotFoundResponse,
          409: NotFoundResponse,
          422: validationResponse,
        },
      },
      // The body is optional: none is `{}` (every field has a default).
      preValidation: async (request) => {
        request.body ??= {} as ForkConversationRequest;
      },
    },
    async (request, reply) => {
      const source = conversationOf(deps.service, request);
      const stateDir = (id: string) => conversationStateDir(deps.dataDir, id);
      const fork = await deps.service.fork(source, request.body, stateDir);
      return reply.code(201).send(conversationInfo(fork));
    },
  );
}
