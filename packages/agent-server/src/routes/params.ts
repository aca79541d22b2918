import { type Static, Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { Conversation } from '../conversations/conversation.ts';
import type { ConversationService } from '../conversations/service.ts';
import { NotFoundError } from '../http/errors.ts';

export const ConversationIdParams = Type.Object(
  { conversation_id: Type.String({ format: 'uuid', description: 'The conversation id (a UUID).' }) },
  { additionalProperties: false },
);
export type ConversationIdParams = Static<typeof ConversationIdParams>;

export const NotFoundResponse = Type.Object({ detail: Type.String() }, { description: 'Not found.' });
export const validationResponse = { $ref: 'HTTPValidationError#', description: 'Invalid input.' };

/** The conversation named by the path, or a 404. */
export function conversationOf(service: ConversationService, request: FastifyRequest): Conversation {
  const { conversation_id: id } = request.params as ConversationIdParams;
  const conversation = service.get(id);
  if (!conversation) throw new NotFoundError(`Conversation not found: ${id}`);
  return conversation;
}
