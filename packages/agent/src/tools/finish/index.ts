import type { ActionOf, ObservationOf } from '@bosun/protocol';
import { textObservation } from '../observations.ts';
import { READS_ONLY, builtInTool } from '../shared/definition.ts';
import type { Tool } from '../tool.ts';

type FinishAction = ActionOf<'FinishAction'>;
type FinishObservation = ObservationOf<'FinishObservation'>;

const DESCRIPTION = `Ends the task and hands the conversation back to the user with a final message.

Call it when:
- the requested work is done, or
- you cannot go further (something is missing, blocked or impossible) and need the user.

In the message:
- summarize what you did and what came of it;
- say what the user may want to do next;
- if you could not finish, explain why and what would unblock you;
- ask any question you need answered.

Calls made after this one in the same response are not run.`;

/** The `finish` tool: ends the run; its observation's content is the final message. */
export function createFinishTool(): Tool<FinishAction, FinishObservation> {
  return builtInTool('finish', 'Finish', {
    description: DESCRIPTION,
    hints: READS_ONLY,
    execute: async (action, context) => textObservation('FinishObservation', context.mask(action.message)),
  });
}
