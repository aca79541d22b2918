import { type LLMConfig, LLM_SECRET_FIELDS, Success, type SwitchLLMRequest } from '@bosun/protocol';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Conversation } from '../conversations/conversation.ts';
import { agentFinalResponse } from '../conversations/final-response.ts';
import { REDACTED, redactedAgent } from '../conversations/info.ts';
import type { AgentRunner } from '../conversations/runner.ts';
import { pause } from '../conversations/runs.ts';
import type { ConversationService } from '../conversations/service.ts';
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

/**
 * The agent with the new LLM. Secrets shown as `**********` (what responses show) keep their current value, so
 * an LLM read from a response and sent back keeps its key (OpenHands drops it).
 */
function withLlm(conversation: Conversation, llm: LLMConfig): LLMConfig {
  const current = conversation.record.request.agent.llm;
  const next = { ...llm };
  for (const field of LLM_SECRET_FIELDS) if (next[field] === REDACTED) next[field] = current[field] ?? null;
  if (next.extra_headers) {
    const headers = Object.entries(next.extra_headers)
      .map(([name, value]) => [name, value === REDACTED ? current.extra_headers?.[name] : value])
      .filter(([, value]) => value !== undefined);
    next.extra_headers = Object.fromEntries(headers);
  }
  return next;
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
      const llm = withLlm(conversation, request.body.llm);
      const agent = { ...conversation.record.request.agent, llm };
      // In the same turn as the check: the agent is built again, with the new LLM, when it is next needed.
      await Promise.all([
        conversation.release(),
        conversation.append(
          [{ kind: 'ConversationStateUpdateEvent', source: 'environment', key: 'agent', value: redactedAgent(agent) }],
          (record) => {
            record.request.agent = agent;
          },
        ),
      ]);
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
      const conversation = conversationOf(service, request);
      return { response: agentFinalResponse(service.store, conversation.id) };
    },
  );
}
