import type { NewEvent, SendMessageRequest } from '@bosun/protocol';
import type { Conversation } from './conversation.ts';
import { newEventId } from './event-id.ts';
import { statusEvent } from './new-event.ts';
import type { AgentRunner } from './runner.ts';
import { ConversationBusyError, startRun } from './runs.ts';

/** Appends a user message (and starts a run when asked). Shared by REST, WebSocket and `initial_message`. */
export async function sendUserMessage(
  conversation: Conversation,
  message: SendMessageRequest,
  runner: AgentRunner,
): Promise<void> {
  // The message and the record's pointer to it are one durable write (one commit per message, not two).
  const id = newEventId();
  // UserPromptSubmit hooks: a blocked message is still stored, with its reason in `blocked_messages`.
  const review = await runner.reviewUserMessage?.(conversation, message.content);
  const blocked = review?.blocked ?? null;
  await runner.beforeUserMessage?.(conversation);
  const activated = review?.activated_skills ?? [];
  const event: NewEvent = {
    id,
    kind: 'MessageEvent',
    source: 'user',
    llm_message: { role: 'user', content: message.content, thinking_blocks: [] },
    activated_skills: activated,
    extended_content: review?.extended_content ?? [],
  };
  await conversation.decide((record) => {
    // A new message reopens a finished or stuck conversation (a status change, so with its state event).
    const reopens = record.execution_status === 'finished' || record.execution_status === 'stuck';
    if (reopens) record.execution_status = 'idle';
    record.last_user_message_id = id;
    if (blocked !== null) record.blocked_messages = { ...record.blocked_messages, [id]: blocked };
    if (activated.length) {
      record.activated_knowledge_skills = [...new Set([...record.activated_knowledge_skills, ...activated])];
    }
    return reopens ? [event, statusEvent('idle')] : [event];
  });
  if (message.run) {
    try {
      await startRun(conversation, runner);
    } catch (error) {
      if (!(error instanceof ConversationBusyError)) throw error;
      // The running agent picks the message up on its next step.
    }
  }
}
