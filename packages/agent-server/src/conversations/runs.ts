import type { Conversation } from './conversation.ts';
import { statusEvent } from './new-event.ts';
import type { AgentRunner } from './runner.ts';

export class ConversationBusyError extends Error {
  constructor() {
    super('Conversation already running. Wait for completion or pause first.');
  }
}

const STARTABLE = new Set(['idle', 'paused', 'error', 'stuck', 'waiting_for_confirmation']);

/** How the run in progress of a conversation is cancelled (see `RunSignals`), and when it has ended. */
interface RunControl {
  stop: AbortController;
  pause: AbortController;
  ended?: Promise<void>;
}
const controls = new WeakMap<Conversation, RunControl>();

/**
 * Starts a run in the background. Whether the conversation may start is decided inside its single writer,
 * against the status the writes queued before leave it, in the write that marks it `running`. "Running" is
 * derived from a promise that always settles, so a conversation can never be left marked busy with nothing
 * running.
 */
export async function startRun(conversation: Conversation, runner: AgentRunner): Promise<'started' | 'finished'> {
  if (conversation.activeRun) throw new ConversationBusyError();
  const control: RunControl = { stop: new AbortController(), pause: new AbortController() };
  const decision: { outcome: 'started' | 'finished' | 'busy'; run?: Promise<void> } = { outcome: 'started' };
  const markedRunning = conversation.decide((record) => {
    if (record.execution_status === 'finished') decision.outcome = 'finished';
    else if (!STARTABLE.has(record.execution_status)) decision.outcome = 'busy';
    if (decision.outcome === 'started') {
      record.execution_status = 'running';
      return [statusEvent('running')];
    }
    // Refused: the conversation is free again at once, for a start queued behind this one (a message's).
    if (decision.run && conversation.activeRun === decision.run) conversation.activeRun = undefined;
    return undefined;
  });
  const run = (async () => {
    await markedRunning;
    if (decision.outcome === 'started')
      await runner.run(conversation, { stop: control.stop.signal, pause: control.pause.signal });
  })();
  decision.run = run;
  conversation.activeRun = run;
  controls.set(conversation, control);
  control.ended = run
    .catch(async (error: unknown) => {
      // A cancelled run ends as its canceller says: `paused` for a pause, recovered by the server when it stops.
      if (control.stop.signal.aborted || control.pause.signal.aborted) return;
      runner.crashed?.(conversation, error);
      await conversation
        .setStatus('error', [
          {
            kind: 'ConversationErrorEvent',
            source: 'environment',
            code: error instanceof Error ? error.name : 'Error',
            detail: error instanceof Error ? error.message : String(error),
          },
        ])
        .catch(() => undefined);
    })
    .finally(() => {
      if (conversation.activeRun === run) conversation.activeRun = undefined;
      if (controls.get(conversation) === control) controls.delete(conversation);
    });
  // Answer once the run is visible: a client reading the status right after starting a run sees `running`,
  // never the status before it (which would look like a run that already ended).
  await markedRunning.catch(() => undefined);
  if (decision.outcome === 'busy') throw new ConversationBusyError();
  return decision.outcome;
}

/**
 * Pauses: a `PauseEvent` and the `paused` status. A running agent stops between steps: the step in flight
 * completes, but an LLM call that is failing is not retried (a backoff wait ends at once).
 */
export async function pause(conversation: Conversation): Promise<void> {
  // The run paused is the one in progress now (not one started after the status change).
  const control = controls.get(conversation);
  // Decided in the write, so two pauses at once record one.
  const written = await conversation.decide((record) => {
    if (record.execution_status === 'paused') return undefined;
    record.execution_status = 'paused';
    return [{ kind: 'PauseEvent', source: 'user' }, statusEvent('paused')];
  });
  if (written.length) control?.pause.abort(new Error('The conversation was paused.'));
}

/**
 * Cancels the run in progress, if any (the server is stopping): LLM calls, retries and tool commands end. Resolves
 * when the run has ended, or after `deadlineMs` if it has not.
 */
export async function stopRun(conversation: Conversation, deadlineMs: number): Promise<void> {
  const control = controls.get(conversation);
  if (!control?.ended) return;
  control.stop.abort(new Error('The server is stopping.'));
  await settledWithin(control.ended, deadlineMs);
}

/** How long an interrupt waits for the run to stop (a tool that ignores the stop signal may take longer). */
const INTERRUPT_WAIT_MS = 5_000;

/**
 * Interrupts the agent at once: paused first, so the run loop stops wherever the cancellation cuts it off, then
 * its LLM call is cancelled and its tools stopped (`runner.interrupt`). Resolves when the run has ended, or
 * after `INTERRUPT_WAIT_MS`.
 */
export async function interrupt(conversation: Conversation, runner: AgentRunner): Promise<void> {
  const run = conversation.activeRun;
  await pause(conversation);
  runner.interrupt?.(conversation);
  if (run) await settledWithin(run, INTERRUPT_WAIT_MS);
}

/** Waits for `run` to settle, `ms` at most. */
async function settledWithin(run: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    run.catch(() => undefined),
    new Promise((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]);
  clearTimeout(timer);
}
