import type { AgentHooks } from '../hooks/agent-hooks.ts';
import type { AgentSession } from '../session/session.ts';
import type { StepOutcome } from './parts.ts';

/** The agent would finish: a Stop hook may send it back to work (with its feedback), else the run ends. */
export async function finishRun(hooks: AgentHooks, session: AgentSession, signal: AbortSignal): Promise<StepOutcome> {
  const { feedback, keepGoing } = await hooks.beforeFinish(session, signal);
  if (feedback) await session.append([feedback]);
  if (keepGoing) return 'continue';
  await session.setStatus('finished');
  return 'done';
}
