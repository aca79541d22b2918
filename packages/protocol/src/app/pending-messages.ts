import { type Static, Type } from '@sinclair/typebox';
import { userMessageFields } from '../content.ts';
import { strictObject } from '../schema/builders.ts';

/**
 * Pending messages, as OpenHands' web client queues them while a conversation starts: posted to a start task
 * (`task-{id}`) or a conversation, delivered to its agent in order once the conversation runs.
 */
export const PendingMessageRequest = strictObject(
  'PendingMessageRequest',
  'A message for a conversation that may not run yet.',
  userMessageFields('queued'),
);
export type PendingMessageRequest = Static<typeof PendingMessageRequest>;

export const PendingMessageResponse = strictObject(
  'PendingMessageResponse',
  'A message taken: queued, or delivered at once to a conversation that runs.',
  {
    id: Type.String({ description: 'The message’s id.' }),
    queued: Type.Boolean({ description: 'true: it waits for the conversation; false: its agent has it already.' }),
    position: Type.Integer({ minimum: 0, description: 'Its place among the messages waiting (1 is next; 0: none).' }),
  },
);
export type PendingMessageResponse = Static<typeof PendingMessageResponse>;

/** How many messages may wait for one conversation: the next is refused (429). */
export const MAX_PENDING_MESSAGES = 10;
