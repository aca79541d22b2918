import { LLMError, NoCondenserError, condenserSettings } from '@bosun/agent';
import { ConflictError } from '@bosun/http';
import type { FastifyInstance } from 'fastify';
import type { AgentRunner } from '../../conversations/runner.ts';
import type { ConversationService } from '../../conversations/service.ts';
import { ConversationIdParams, conversationOf, upstreamActionResponses } from '../params.ts';

export interface CondenseRouteDeps {
  service: ConversationService;
  runner: AgentRunner;
}

const NO_CONDENSER = new NoCondenserError().message;

/**
 * `POST /api/conversations/{id}/condense`: appends a `CondensationRequest` and condenses at once (the summary
 * call is made before the answer), whether or not a run is in progress; a running agent sees the condensed
 * history from its next step on. Unlike OpenHands (a 500), a conversation without a condenser is a 409.
 */
export function condenseRoutes(app: FastifyInstance, { service, runner }: CondenseRouteDeps): void {
  app.post(
    '/api/conversations/:conversation_id/condense',
    {
      schema: {
        tags: ['Conversations'],
        summary: 'Condense the history the LLM sees (409 without a condenser or with nothing to forget)',
        params: ConversationIdParams,
        response: upstreamActionResponses,
      },
    },
    async (request, reply) => {
      const conversation = conversationOf(service, request);
      const condense = runner.condense?.bind(runner);
      if (!condense) throw new ConflictError('This server runs no agent, so it cannot condense conversations.');
      if (!condenserSettings(conversation.record.request.agent)) throw new ConflictError(NO_CONDENSER);
      let condensed: boolean;
      try {
        condensed = await condense(conversation);
      } catch (error) {
        if (error instanceof NoCondenserError) throw new ConflictError(error.message);
        if (error instanceof LLMError) {
          return reply.code(502).send({ detail: `The condenser's LLM call failed: ${error.message}` });
        }
        throw error;
      }
      if (!condensed) {
        throw new ConflictError(
          'Nothing to condense: the history the LLM sees is too short (its first keep_first events are always kept).',
        );
      }
      return { success: true };
    },
  );
}
