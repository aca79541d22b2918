import { NotFoundError } from '@bosun/http';
import { Success } from '@bosun/protocol';
import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Conversation } from '../conversations/conversation.ts';
import type { ConversationService } from '../conversations/service.ts';

export const ConversationIdParams = Type.Object(
  { conversation_id: Type.String({ format: 'uuid', description: 'The conversation id (a UUID).' }) },
  { additionalProperties: false },
);
export type ConversationIdParams = Static<typeof ConversationIdParams>;

/** A schema that refers to the OpenAPI component `id` (a shape of the wire model). */
export const componentRef = (id: string) => Type.Unsafe({ $ref: `${id}#` });

export const NotFoundResponse = Type.Object({ detail: Type.String() }, { description: 'Not found.' });
export const validationResponse = { $ref: 'HTTPValidationError#', description: 'Invalid input.' };

/** The answers of an action that may conflict with the conversation's state or fail upstream (an LLM, a fetch). */
export const upstreamActionResponses = {
  200: Success,
  404: NotFoundResponse,
  409: NotFoundResponse,
  422: validationResponse,
  502: NotFoundResponse,
};

/** The conversation named by the path, or a 404. */
export function conversationOf(service: ConversationService, request: FastifyRequest): Conversation {
  const { conversation_id: id } = request.params as ConversationIdParams;
  const conversation = service.get(id);
  if (!conversation) throw new NotFoundError(`Conversation not found: ${id}`);
  return conversation;
}

/** A POST route on one conversation. */
export interface ConversationCommand {
  path: string;
  tags: string[];
  summary: string;
  body?: unknown;
  /** It answers 409 when the conversation's state forbids it. */
  conflicts?: boolean;
}

/** Registers `command`: `act` does its work on the conversation named by the path, then it answers success. */
export function conversationCommand<B>(
  app: FastifyInstance,
  service: ConversationService,
  command: ConversationCommand,
  act: (conversation: Conversation, body: B) => Promise<void>,
): void {
  const response = command.conflicts
    ? { 200: Success, 404: NotFoundResponse, 409: NotFoundResponse, 422: validationResponse }
    : { 200: Success, 404: NotFoundResponse, 422: validationResponse };
  const { tags, summary, body } = command;
  const schema = { tags, summary, params: ConversationIdParams, ...(body ? { body } : {}), response };
  app.post<{ Body: B }>(`/api/conversations/:conversation_id/${command.path}`, { schema }, async (request) => {
    await act(conversationOf(service, request), request.body as B);
    return { success: true };
  });
}
