import type { Conversation } from './conversation.ts';
import type { AgentRunner } from './runner.ts';

export class ConversationBusyError extends Error {
  constructor() {
    super('Conversation already running. Wait for completion or pause first.');
  }
}

const STARTABLE = new Set(['idle', 'paused', 'error', 'stuck', 'waiting_for_confirmation']);

/**
 * Starts a run in the background. "Running" is derived from a promise that always settles, so a conversation
 * can never be left marked busy with nothing running.
 */
export async function startRun(conversation: Conversation, runner: AgentRunner): Promise<'started' | 'finished'> {
  if (conversation.activeRun) throw new ConversationBusyError();
  if (conversation.record.execution_status === 'finished') return 'finished';
  if (!STARTABLE.has(conversation.record.execution_status)) throw new ConversationBusyError();
  let markedRunning: Promise<void> = Promise.resolve();
  const run = (async () => {
    markedRunning = conversation.setStatus('running');
    await markedRunning;
    await runner.run(conversation);
  })();
  conversation.activeRun = run;
  run
    .catch(async (error: unknown) => {
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
    });
  // Answer once the run is visible: a client reading the status right after starting a run sees `running`,
  // never the status before it (which would look like a run that already ended).
  await markedRunning.catch(() => undefined);
  return 'started';
}

/** Pauses: a `PauseEvent` and the `paused` status (a running agent stops between steps). */
export async function pause(conversation: Conversation): Promise<void> {
  const status = conversation.record.execution_status;
  if (status === 'paused') return;
  await conversation.setStatus('paused', [{ kind: 'PauseEvent', source: 'user' }]);
}
