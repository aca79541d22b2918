import type { AgentServerClient } from '@bosun/client';
import { ConflictError, HttpError, NotFoundError } from '@bosun/http';
import type { AppConversation as ConversationRow } from '../data/index.ts';
import { type Sandbox, agentOf } from '../sandboxes/index.ts';
import type { ConversationDeps } from './deps.ts';

const NOT_FOUND = 'Conversation not found';

/** A user's conversation and its sandbox (undefined when the sandbox no longer exists). */
export interface ConversationInSandbox {
  row: ConversationRow;
  sandbox: Sandbox | undefined;
}

/** The user's conversation and its sandbox; 404 when it does not exist or is another user's. */
export async function conversationInSandbox(
  deps: Pick<ConversationDeps, 'repositories' | 'sandboxes'>,
  userId: string,
  id: string,
): Promise<ConversationInSandbox> {
  const row = await deps.repositories.conversations.get(userId, id);
  if (!row) throw new NotFoundError(NOT_FOUND);
  const sandbox = row.sandbox_id === null ? undefined : await deps.sandboxes.get(userId, row.sandbox_id);
  return { row, sandbox };
}

/** The agent server of the conversation's sandbox: 409 while the sandbox does not run, 410 once it is gone. */
export function runningAgentOf(id: string, sandbox: Sandbox | undefined): AgentServerClient {
  if (!sandbox || sandbox.status === 'MISSING') throw sandboxGone();
  const agent = agentOf(sandbox);
  if (!agent) {
    throw new ConflictError(
      `The conversation’s sandbox is ${sandbox.status}: resume it first (POST /api/v1/app-conversations/${id}/resume)`,
    );
  }
  return agent;
}

/** 410: the conversation's sandbox, and its workspace with it, no longer exists. */
export function sandboxGone(): HttpError {
  return new HttpError(410, 'The conversation’s sandbox no longer exists (its workspace is gone)');
}
