import type { AppConversationStartRequest } from '@bosun/protocol';
import type { StartTaskRecord } from '../data/index.ts';
import type { StartTasksRepository } from '../data/repositories/start-tasks.ts';

/**
 * Taking over a start task whose replica stopped (a rolling update, a crash): the task keeps the full start (the
 * request as admitted, its secrets included, and the organization it acts in) sealed with the app's key ring from
 * the moment it is created; any live replica's sweep (task-leases.ts) claims a task nobody touched for a lease
 * with one conditional update (one claimer wins), becomes its runner and runs the start again from the top. Each
 * step is safe to run again (start-run.ts): the conversation id was fixed when the task was created, the sandbox
 * (its id recorded on the task before it starts) is reused or resumed, or started anew when it is gone, a complete
 * clone is kept (a half-made one, or one still going, is cloned again: cloneOnce), a conversation row or agent-server conversation the stopped run made is reused. A replica
 * whose task was taken over finds its next write refused (the task has another runner) and stops without settling
 * it. The sealed start is erased when the task is READY or ERROR. A replica that closes hands its unfinished
 * tasks over instead of leaving them to their lease (StartTasks.close, TaskLeases.handOver): no runner, the lease
 * aged past its end, claimed at the next sweep of another replica without counting a takeover.
 */

/** How many times a task is taken over before it ends ERROR. */
export const MAX_TAKEOVERS = 2;

/** What a task says that was taken over `MAX_TAKEOVERS` times, its runner stopping each time. */
export const TRIED_TOO_OFTEN =
  `the app server running the start stopped, and the start was tried ${MAX_TAKEOVERS} times more by other app ` +
  `servers (taken over ${MAX_TAKEOVERS} times), which stopped too: start the conversation again`;

/** What a task says whose sealed start cannot be opened (the key it was sealed with is gone). */
export const UNREADABLE = 'the app server running the start stopped, and its request could not be read again';

/** A start as it is sealed in its task. */
export interface SealedStart {
  request: AppConversationStartRequest;
  orgId: string | null;
}

/** The run of a task no longer holds it (taken over by another replica, or settled): it stops, settling nothing. */
export class TaskTakenOver extends Error {
  override name = 'TaskTakenOver';
  constructor(taskId: string) {
    super(`start task ${taskId} is no longer this run's: another app server took it over`);
  }
}

/** The start sealed in the task (null when none is); a SecretsKeyError when the key ring cannot open it. */
export function openStart(tasks: Pick<StartTasksRepository, 'unseal'>, task: StartTaskRecord): SealedStart | null {
  const sealed = tasks.unseal(task);
  return sealed === null ? null : (JSON.parse(sealed) as SealedStart);
}
