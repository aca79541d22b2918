import type { ConfirmationPolicy, Event, EventOf, NewEvent, SecurityAnalyzer } from '@bosun/protocol';
import type { AgentSession } from '../session/session.ts';
import { type AnalyzerContext, type RiskRule, analyzeAction } from './analyzer.ts';
import { type SecurityRisk, reaches } from './risk.ts';

type ActionEvent = EventOf<'ActionEvent'>;
type NewActionEvent = Extract<NewEvent, { kind: 'ActionEvent' }>;

export const NEVER_CONFIRM: ConfirmationPolicy = { kind: 'NeverConfirm' };

/**
 * Whether `policy` makes an action of `risk` wait for the user. `NeverConfirm`: never. `AlwaysConfirm`: always.
 * `ConfirmRisky`: UNKNOWN waits when `confirm_unknown`; a known risk waits from `threshold` on.
 */
export function shouldConfirm(policy: ConfirmationPolicy, risk: SecurityRisk): boolean {
  switch (policy.kind) {
    case 'NeverConfirm':
      return false;
    case 'AlwaysConfirm':
      return true;
    case 'ConfirmRisky':
      return risk === 'UNKNOWN' ? (policy.confirm_unknown ?? true) : reaches(risk, policy.threshold ?? 'HIGH');
  }
}

/**
 * Whether the actions of one LLM response wait for confirmation: when the policy wants it for any of them. A
 * response that is a single `finish` or `think` call never waits.
 */
export function needsConfirmation(
  actions: readonly Pick<ActionEvent, 'action' | 'security_risk'>[],
  policy: ConfirmationPolicy,
): boolean {
  const executable = actions.filter((event) => event.action != null);
  if (executable.length === 0) return false;
  const [only] = executable;
  if (executable.length === 1 && (only?.action?.kind === 'FinishAction' || only?.action?.kind === 'ThinkAction')) {
    return false;
  }
  return executable.some((event) => shouldConfirm(policy, event.security_risk ?? 'UNKNOWN'));
}

/** Sets `security_risk` on each ActionEvent of `events` with the session's analyzer (others pass unchanged). */
export function assessRisks(
  events: NewEvent[],
  analyzer: SecurityAnalyzer | null | undefined,
  context: AnalyzerContext & { readOnly(toolName: string): boolean; rule?(toolName: string): RiskRule | undefined },
): NewEvent[] {
  return events.map((event) => {
    if (event.kind !== 'ActionEvent') return event;
    const action = event as NewActionEvent;
    const risk = analyzeAction(
      analyzer,
      {
        action: action.action ?? null,
        toolCallArguments: action.tool_call.arguments,
        readOnly: context.readOnly(action.tool_name),
        rule: context.rule?.(action.tool_name),
      },
      context,
    );
    return { ...action, security_risk: risk };
  });
}

/** The terminal's working directory after the last command, as its observations report it. */
export function terminalCwd(history: readonly Event[]): string | undefined {
  for (let i = history.length - 1; i >= 0; i--) {
    const event = history[i] as Event;
    if (event.kind !== 'ObservationEvent' || event.observation.kind !== 'TerminalObservation') continue;
    const cwd = (event.observation.metadata as { working_dir?: string | null } | undefined)?.working_dir;
    if (cwd) return cwd;
  }
  return undefined;
}

/**
 * The confirmation gate of the run loop, before `actions` run. When they need confirmation they stay pending (in
 * the log, without results), the conversation moves to `waiting_for_confirmation` (unless something else, a
 * pause, already stopped the run) and the run ends: returns true. Actions accepted by the user pass.
 */
export async function holdForConfirmation(
  session: AgentSession,
  actions: readonly ActionEvent[],
  history: readonly Event[] = [],
): Promise<boolean> {
  if (acceptedByRun(history)) return false;
  if (!needsConfirmation(actions, session.confirmationPolicy?.() ?? NEVER_CONFIRM)) return false;
  if (session.status() === 'running') await session.setStatus('waiting_for_confirmation');
  return true;
}

/**
 * Whether the run now in progress accepted the pending actions: it was started right from
 * `waiting_for_confirmation` (by `respond_to_confirmation` with `accept`, or a plain run, as in OpenHands). A run
 * started from anything else (say `paused`) asks again, and so does a run started by a user message sent while
 * the actions waited: a new message is not an answer to them (OpenHands would run them). Read from the log's
 * status changes, so it holds after a restart too.
 */
export function acceptedByRun(history: readonly Event[]): boolean {
  let seenCurrent = false;
  for (let i = history.length - 1; i >= 0; i--) {
    const event = history[i] as Event;
    if (seenCurrent && event.kind === 'MessageEvent' && event.source === 'user') return false;
    if (event.kind !== 'ConversationStateUpdateEvent' || event.key !== 'execution_status') continue;
    if (!seenCurrent) {
      if (event.value !== 'running') return false;
      seenCurrent = true;
      continue;
    }
    return event.value === 'waiting_for_confirmation';
  }
  return false;
}
