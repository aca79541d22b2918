import { InputError } from '@bosun/http';
import type { ResolvedStartRequest } from '@bosun/protocol';
import type { Conversation } from './conversation.ts';
import type { AgentRunner } from './runner.ts';
import { sendUserMessage } from './send-message.ts';
import type { ConversationService } from './service.ts';
import { ensureWorkingDir, workingDirProblems } from './workspace.ts';

/**
 * Starts a conversation, or returns the existing one when `conversation_id` is already taken. Its request is
 * checked (working_dir, what the runner can run) and its working_dir created before anything is stored, so a
 * bad one leaves no conversation behind; a new conversation's `initial_message` is sent and run.
 */
export async function startConversation(
  service: ConversationService,
  runner: AgentRunner,
  request: ResolvedStartRequest,
  /** When set, `working_dir` must be inside it. */
  workspaceRoot: string | undefined,
): Promise<{ conversation: Conversation; created: boolean }> {
  const dir = request.workspace.working_dir;
  const problems = [...workingDirProblems(dir, workspaceRoot), ...(runner.validate?.(request) ?? [])];
  if (problems.length) throw new InputError(problems);
  const unusable = await ensureWorkingDir(dir, workspaceRoot ? { root: workspaceRoot } : {});
  if (unusable.length) throw new InputError(unusable);
  const started = await service.create(request, async (c) => runner.prepare?.(c));
  if (started.created && request.initial_message) {
    await sendUserMessage(started.conversation, { ...request.initial_message, run: true }, runner);
  }
  return started;
}
