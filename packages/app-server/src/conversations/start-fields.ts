import { InputError } from '@bosun/http';
import type { AppConversationStartRequest } from '@bosun/protocol';
import type { NewAppConversation } from '../data/index.ts';
import { suggestedTaskProblem, suggestedTaskPrompt } from './suggested-task-prompt.ts';

const TITLE_PROCESSOR = 'SetTitleCallbackProcessor';

type Problem = { loc: (string | number)[]; msg: string; type: string };
const refused = (loc: (string | number)[], msg: string): Problem => ({
  loc: ['body', ...loc],
  msg,
  type: 'value_error',
});

/**
 * The start request as Bosun runs it: each field of OpenHands' that Bosun does not implement refused with a 422
 * saying so (never dropped silently), and a `suggested_task` made the first message, as OpenHands makes it.
 */
export function startRequestOf(body: AppConversationStartRequest): AppConversationStartRequest {
  const problems: Problem[] = [];
  if (body.agent_type === 'plan') {
    problems.push(refused(['agent_type'], 'The planning agent is not supported: leave agent_type out or send default'));
  }
  if (body.parent_conversation_id) {
    problems.push(
      refused(['parent_conversation_id'], 'Sub-conversations are not supported: start a conversation of its own'),
    );
  }
  (body.processors ?? []).forEach((processor, index) => {
    // OpenHands appends this one to every start; Bosun titles every conversation anyway.
    if (processor.kind === TITLE_PROCESSOR) return;
    const msg = `Event callback processors are not supported (only ${TITLE_PROCESSOR}, which Bosun always runs)`;
    problems.push(refused(['processors', index, 'kind'], msg));
  });
  const task = body.suggested_task;
  if (task && body.initial_message) {
    problems.push(refused(['suggested_task'], 'A suggested task makes the first message: send it or initial_message'));
  }
  const taskProblem = task ? suggestedTaskProblem(task) : undefined;
  if (taskProblem) problems.push(refused(['suggested_task', taskProblem.field], taskProblem.msg));
  if (problems.length > 0) throw new InputError(problems);
  if (!task) return body;
  const text = suggestedTaskPrompt(task);
  return {
    ...body,
    initial_message: { role: 'user', content: [{ type: 'text', text }], run: true },
  } as AppConversationStartRequest;
}

/** What the conversation's row keeps of its start request: its trigger, pull requests and sharing. */
export function recordedStartFields(request: AppConversationStartRequest): Partial<NewAppConversation> {
  return {
    ...(request.trigger ? { conversation_trigger: request.trigger } : {}),
    ...(request.pr_number && request.pr_number.length > 0 ? { pr_number: JSON.stringify(request.pr_number) } : {}),
    ...(request.public ? { is_public: 1 } : {}),
  };
}
