import { Success, type SwitchLLMRequest } from '@bosun/protocol';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { AgentRunner } from '../conversations/runner.ts';
import { pause } from '../conversations/runs.ts';
import type { ConversationService } from '../conversations/service.ts';
import { switchLlm } from '../conversations/settings.ts';
import { ConflictError } from '../http/errors.ts';
import { ConversationIdParams, NotFoundResponse, conversationOf, validationResponse } from './params.ts';

export interface ConversationActionDeps {
  service: ConversationService;
  runner: AgentRunner;
}

const tags = ['Conversations'];
const ref = (id: string) => Type.Unsafe({ $ref: `${id}#` });
/** How long an interrupt waits for the run to stop (a tool that ignores the stop signal may take longer). */
const INTERRUPT_WAIT_MS = 5_000;

/** Waits for the run to end, `ms` at most. */
async function settledWithin(run: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    run.catch(() => undefined),
    new Promise((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]);
  clearTimeout(timer);
}

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
      const conversation = conversationOf(service, request);
      const run = conversation.activeRun;
      // Paused first, so the run loop stops wherever the cancellation cuts it off.
      await pause(conversation);
      runner.interrupt?.(conversation);
      if (run) await settledWithin(run, INTERRUPT_WAIT_MS);
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
