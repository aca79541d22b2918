import { LLMError, buildMessages, createProvider } from '@bosun/agent';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { ConversationService } from '../../conversations/service.ts';
import { ConversationIdParams, NotFoundResponse, conversationOf, validationResponse } from '../params.ts';

const AskAgentRequest = Type.Object(
  { question: Type.String({ minLength: 1, maxLength: 100_000, description: 'The question to ask the agent.' }) },
  { additionalProperties: false },
);
const AskAgentResponse = Type.Object({ response: Type.String({ description: "The agent's answer." }) });

/**
 * `POST /api/conversations/{id}/ask_agent`: a side question to the conversation's LLM over the history it sees
 * (condensations applied), with no tools. Nothing is added to the conversation: no event, no state change. An
 * unknown conversation is a 404 (OpenHands: a 500); a failed LLM call is a 502.
 */
export function askAgentRoutes(app: FastifyInstance, { service }: { service: ConversationService }): void {
  app.post<{ Body: { question: string } }>(
    '/api/conversations/:conversation_id/ask_agent',
    {
      schema: {
        tags: ['Conversations'],
        summary: 'Ask agent (a side question over the history; no events are added)',
        params: ConversationIdParams,
        body: AskAgentRequest,
        response: { 200: AskAgentResponse, 404: NotFoundResponse, 422: validationResponse, 502: NotFoundResponse },
      },
    },
    async (request, reply) => {
      const conversation = conversationOf(service, request);
      const history = service.events.history(conversation.id);
      const messages = buildMessages(history);
      messages.push({
        role: 'user',
        content: [{ type: 'text', text: request.body.question, cache_prompt: false }],
        thinking_blocks: [],
      });
      try {
        // One attempt: a side question answers (or fails with 502) while the asker waits, never after minutes of
        // the retries a run would make.
        const llm = { ...conversation.record.request.agent.llm, num_retries: 0 };
        const answer = await createProvider(llm).complete({ messages, tools: [] });
        return { response: answer.content ?? '' };
      } catch (error) {
        if (!(error instanceof LLMError)) throw error;
        return reply.code(502).send({ detail: `The LLM call failed: ${error.message}` });
      }
    },
  );
}
