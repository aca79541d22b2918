import type { NewEvent, StoredEvent } from '@bosun/protocol';
import { completeWithCondensation } from '../condenser/step.ts';
import { awaitsBlockedPrompt } from '../hooks/agent-hooks.ts';
import { assessRisks, holdForConfirmation, terminalCwd } from '../security/confirmation.ts';
import { agentMessage, environmentMessage, telemetryEvents } from '../session/events.ts';
import { pendingActions } from '../session/pending-actions.ts';
import type { AgentSession } from '../session/session.ts';
import { recordResponseUsage } from '../session/usage.ts';
import { actionEvents } from './action-events.ts';
import { executeActions } from './execute.ts';
import { finishRun } from './finish.ts';
import { observedCall } from './llm-call.ts';
import type { AgentParts, StepOutcome } from './parts.ts';

const NUDGE =
  'Your last response did not include a function call or a message. Please use a tool to proceed with the task.';

/**
 * One step of a run: actions still pending (accepted after confirmation) run first; otherwise one LLM call, whose
 * tool calls are stored, rated, judged and (unless they wait for confirmation) run.
 */
export async function runStep(
  parts: AgentParts,
  session: AgentSession,
  signal: AbortSignal,
  retries?: AbortSignal,
): Promise<StepOutcome> {
  const history = await session.history();
  const pending = pendingActions(history);
  if (pending.length) {
    if (await holdForConfirmation(session, pending, history)) return 'done';
    return executeActions(parts, session, pending, signal);
  }
  const blocked = session.blockedMessages?.() ?? {};
  if (awaitsBlockedPrompt(history, blocked)) {
    await session.setStatus('finished');
    return 'done';
  }

  const response = await completeWithCondensation({
    session,
    history,
    condenser: parts.condenser,
    complete: (messages) =>
      observedCall(session, (observer) =>
        parts.provider.complete({ messages, tools: parts.llmTools }, signal, retries, observer),
      ),
    signal,
    ...(retries ? { retries } : {}),
    hiddenMessageIds: new Set(Object.keys(blocked)),
  });
  if (!response) return 'done';
  await recordResponseUsage(session, parts.spec.llm, response);
  const telemetry = telemetryEvents(parts.spec.llm, response);

  if (response.toolCalls.length === 0) {
    const message = agentMessage(response);
    if (response.content?.trim()) {
      await session.append([...telemetry, ...(await critique(parts, session, [message], signal, retries))]);
      return finishRun(parts.hooks, session, signal);
    }
    await session.append([...telemetry, message, environmentMessage(NUDGE)]);
    return 'continue';
  }

  const { actions, errors } = actionEvents(response, parts.toolsByName);
  const assessed = assessRisks(actions, session.securityAnalyzer?.(), {
    workspace: parts.workspace,
    terminalCwd: terminalCwd(history),
    readOnly: (name) => parts.toolsByName.get(name)?.readOnly ?? false,
    rule: (name) => parts.toolsByName.get(name)?.riskSubject,
  });
  const judged = await critique(parts, session, assessed, signal, retries);
  const stored = await session.append([...telemetry, ...judged, ...errors]);
  const executable = stored.filter(
    (event): event is StoredEvent<'ActionEvent'> => event.kind === 'ActionEvent' && event.action != null,
  );
  if (await holdForConfirmation(session, executable)) return 'done';
  return executeActions(parts, session, executable, signal);
}

/**
 * The critic's judgement set on `events` (before they are stored: events never change once stored); a pause
 * (`retries`) ends its LLM retries like the agent's.
 */
function critique(
  parts: AgentParts,
  session: AgentSession,
  events: NewEvent[],
  signal: AbortSignal,
  retries: AbortSignal | undefined,
) {
  return parts.critic ? parts.critic.critique(session, events, signal, retries) : Promise.resolve(events);
}
