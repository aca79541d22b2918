import { ConflictError } from '@bosun/http';
import { Success, type SwitchLLMRequest } from '@bosun/protocol';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { AgentRunner } from '../conversations/runner.ts';
import { interrupt } from '../conversations/runs.ts';
import type { ConversationService } from '../conversations/service.ts';
import { switchLlm } from '../conversations/settings.ts';
import { ConversationIdParams, NotFoundResponse, conversationOf, validationResponse } from './params.ts';

export interface ConversationActionDeps {
  service: ConversationService;
  runner: AgentRunner;
}

const tags = ['Conversations'];
const ref = (id: string) => Type.Unsafe({ $ref: `${id}#` });
/** OpenHands' routes that act on a conversation's agent: interrupt it, switch its LLM, read its final answer. */
export function conversationActionRoutes(app: FastifyInstance, { service, runner }: ConversationActionDeps): void {
  app.post(
    '/api/conversations/:conversation_id/interrupt',
    {
      schema: {
        tags,
        summary: 'Interrupt the agent at once (its LLM call is cancelled, its tools stopped), leaving it paused',
        params: ConversationIdParams,
        response: { 200: Success, 404: NotFoundResponse, 422: validationResponse },
      },
    },
    async (request) => {
      await interrupt(conversationOf(service, request), runner);
      return { success: true };
    },
  );

  app.post<{ Body: SwitchLLMRequest }>(
    '/api/conversations/:conversation_id/switch_llm',
    {
      schema: {
        tags,
        summary: "Replace the agent's LLM (409 while a run is in progress)",
        params: ConversationIdParams,
        body: ref('SwitchLLMRequest'),
        response: { 200: Success, 404: NotFoundResponse, 409: NotFoundResponse, 422: validationResponse },
      },
    },
    async (request) => {
      const conversation = conversationOf(service, request);
      if (conversation.activeRun) throw new ConflictError('A run is in progress: pause or interrupt it first.');
      // In the same turn as the check.
      await switchLlm(conversation, request.body.llm);
      return { success: true };
    },
  );

  app.get(
    '/api/conversations/:conversation_id/agent_final_response',
    {
      schema: {
        tags,
        summary: "The agent's final answer (its finish message, else its last message)",
        params: ConversationIdParams,
        response: { 200: ref('AgentFinalResponse'), 404: NotFoundResponse, 422: validationResponse },
      },
    },
    async (request) => {
      return { response: service.events.finalResponse(conversationOf(service, request).id) };
    },
  );
}
