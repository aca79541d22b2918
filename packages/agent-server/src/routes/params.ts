import { NotFoundError } from '@bosun/http';
import { Success } from '@bosun/protocol';
import { type Static, Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { Conversation } from '../conversations/conversation.ts';
import type { ConversationService } from '../conversations/service.ts';

export const ConversationIdParams = Type.Object(
  { conversation_id: Type.String({ format: 'uuid', description: 'The conversation id (a UUID).' }) },
  { additionalProperties: false },
);
export type ConversationIdParams = Static<typeof ConversationIdParams>;

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
