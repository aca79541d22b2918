import { type PendingMessageRequest, conversationIdPattern } from '@bosun/protocol';
import { Type } from '@sinclair/typebox';
import type { ApiRoutes } from '../../http/api-routes.ts';
import { shape } from '../../http/replies.ts';
import { routeOptions } from '../../http/route-options.ts';
import { principalOf } from '../../identity/authenticate.ts';
import { type PendingMessageDeps, PendingMessages } from '../pending-messages.ts';
import { tags } from './app-conversation-wire.ts';

const route = routeOptions(...tags);

const uuid = conversationIdPattern.slice(1, -1);
const PendingParams = Type.Object(
  {
    conversation_id: Type.String({
      pattern: `^(task-)?${uuid}$`,
      description: 'A conversation id, or `task-{id}` of a start task (its conversation-to-be).',
    }),
  },
  { additionalProperties: false },
);
type PendingParams = { conversation_id: string };

/**
 * `/api/v1/conversations/{id}/pending-messages` (plural, as OpenHands has it): messages typed while a conversation
 * starts. What a previous run of the app left waiting for a conversation that runs is delivered at registration.
 */
export function pendingMessagesApi(deps: Omit<PendingMessageDeps, 'log'>): ApiRoutes {
  return (api) => {
    const pending = new PendingMessages({ ...deps, log: api.log });
    const waiting = pending
      .deliverWaiting()
      .catch((error) => api.log.warn({ err: error }, 'pending messages: the left-over ones wait'));
    api.addHook('onClose', () => waiting);
    api.post<{ Params: PendingParams; Body: PendingMessageRequest }>(
      '/conversations/:conversation_id/pending-messages',
      route(
        'Queue a message for a conversation (or a start task’s): delivered in order once it runs, at once ' +
          'when it runs already (429: 10 wait already; 409: the start task ended in ERROR)',
        {
          params: PendingParams,
          body: shape('PendingMessageRequest'),
          response: { 201: 'PendingMessageResponse', 409: 'HTTPError', 429: 'HTTPError' },
        },
      ),
      async (request, reply) => {
        const { userId } = principalOf(request);
        const answer = await pending.queue(userId, request.params.conversation_id, request.body);
        return reply.code(201).send(answer);
      },
    );
  };
}
