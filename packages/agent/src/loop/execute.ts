import type { NewEvent, Observation, StoredEvent } from '@bosun/protocol';
import { agentError, conversationError, observationEvent, rejection } from '../session/events.ts';
import type { AgentSession } from '../session/session.ts';
import { secretMasker } from '../shared/secret-masker.ts';
import type { ToolContext } from '../tools/tool.ts';
import { finishRun } from './finish.ts';
import type { AgentParts, StepOutcome } from './parts.ts';
import { detectStuck } from './stuck.ts';

/** Runs the actions in call order, then appends their results in the same order. */
export async function executeActions(
  parts: AgentParts,
  session: AgentSession,
  actions: readonly StoredEvent<'ActionEvent'>[],
  signal: AbortSignal,
): Promise<StepOutcome> {
  const context: ToolContext = {
    workspace: parts.workspace,
    stateDir: parts.stateDir,
    signal,
    // Read at each use: a secret a tool looked up meanwhile (its value new or changed) is masked too.
    mask: (text) => secretMasker(Object.values(parts.secrets()))(text),
  };
  const results: NewEvent[] = [];
  let finished = false;
  for (const event of actions) {
    const tool = parts.toolsByName.get(event.tool_name);
    const action = event.action as NonNullable<typeof event.action>;
    if (!tool) {
      results.push(agentError(event, `Tool '${event.tool_name}' is not available.`));
      continue;
    }
    const blockedBy = await parts.hooks.blocksAction(session, event, signal);
    if (blockedBy !== null) {
      results.push(rejection(event, blockedBy, 'hook'));
      await session.blockAction?.(event.id, blockedBy);
      continue;
    }
    try {
      const result = (await tool.execute(action, context)) as Observation;
      results.push(observationEvent(event, await parts.hooks.afterAction(session, event, result, signal)));
      if (action.kind === 'FinishAction') finished = true;
    } catch (error) {
      results.push(agentError(event, `Error executing tool '${event.tool_name}': ${(error as Error).message}`));
    }
  }
  const history = [...(await session.history()), ...(await session.append(results))];
  if (finished) return finishRun(parts.hooks, session, signal);
  const stuck = session.stuckDetection === false ? undefined : detectStuck(history);
  if (stuck) {
    await session.setStatus('stuck', [conversationError('StuckDetected', stuck)]);
    return 'done';
  }
  return 'continue';
}
