import { ConflictError } from '@bosun/http';
import type { SwitchLLMRequest } from '@bosun/protocol';
import type { FastifyInstance } from 'fastify';
import type { AgentRunner } from '../../conversations/runner.ts';
import { interrupt } from '../../conversations/runs.ts';
import type { ConversationService } from '../../conversations/service.ts';
import { switchLlm } from '../../conversations/settings.ts';
import {
  ConversationIdParams,
  NotFoundResponse,
  componentRef,
  conversationCommand,
  conversationOf,
  validationResponse,
} from '../params.ts';

export interface ConversationActionDeps {
  service: ConversationService;
  runner: AgentRunner;
}

const tags = ['Conversations'];
/** OpenHands' routes that act on a conversation's agent: interrupt it, switch its LLM, read its final answer. */
export function conversationActionRoutes(app: FastifyInstance, { service, runner }: ConversationActionDeps): void {
  conversationCommand(
    app,
    service,
    {
      path: 'interrupt',
      tags,
      summary: 'Interrupt the agent at once (its LLM call is cancelled, its tools stopped), leaving it paused',
    },
    (conversation) => interrupt(conversation, runner),
  );

  conversationCommand<SwitchLLMRequest>(
    app,
    service,
    {
      path: 'switch_llm',
      tags,
      summary: "Replace the agent's LLM (409 while a run is in progress)",
      body: componentRef('SwitchLLMRequest'),
      conflicts: true,
    },
    async (conversation, body) => {
      if (conversation.activeRun) throw new ConflictError('A run is in progress: pause or interrupt it first.');
      // In the same turn as the check.
      await switchLlm(conversation, body.llm);
    },
  );

  app.get(
    '/api/conversations/:conversation_id/agent_final_response',
    {
      schema: {
        tags,
        summary: "The agent's final answer (its finish message, else its last message)",
        params: ConversationIdParams,
        response: { 200: componentRef('AgentFinalResponse'), 404: NotFoundResponse, 422: validationResponse },
      },
    },
    async (request) => {
      return { response: service.events.finalResponse(conversationOf(service, request).id) };
    },
  );
}
