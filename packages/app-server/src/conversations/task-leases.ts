import { randomUUID } from 'node:crypto';
import type { StartTasksRepository } from '../data/repositories/start-tasks.ts';
import { LEASE, type Lease, keepLease, leaseExpiry } from '../data/row-leases.ts';
import { MAX_TAKEOVERS, TRIED_TOO_OFTEN } from './task-takeover.ts';

/**
 * What a task says whose runner stopped before it finished and that cannot be run again: nothing is sealed in it
 * to run (a task made before takeovers).
 */
export const RESTARTED = 'the app server running the start stopped: start the conversation again';

export type TaskLeaseRows = Pick<
  StartTasksRepository,
  'settleUnfinished' | 'touch' | 'abandoned' | 'claim' | 'release'
>;

/** Runs a task this replica just claimed, as `runner` (never rejects). */
export type TakeOver = (taskId: string, runner: string) => void;

/**
 * Who runs which start task: the runner touches its task while it runs; a task nobody touched for a lease is one
 * whose app server stopped. At open, then every half lease, the sweep ends ERROR those that cannot be run again
 * (nothing sealed: RESTARTED; taken over `MAX_TAKEOVERS` times: TRIED_TOO_OFTEN) and claims the others, one
 * conditional update each (of replicas sweeping at once, one wins), to run them here (`takeOver`). Not "every
 * unfinished task" at start: with several replicas of the app, the others' starts are under way.
 */
export class TaskLeases {
  private sweeper: NodeJS.Timeout | undefined;
  private closed = false;

  private constructor(
    private readonly tasks: TaskLeaseRows,
    private readonly lease: Lease,
    private readonly takeOver: TakeOver | undefined,
  ) {}

  /** Without `takeOver`, abandoned tasks are not claimed (they wait for a replica that runs them). */
  static async open(
    tasks: TaskLeaseRows,
    log: { error(details: object, message: string): void },
    lease: Lease = LEASE,
    takeOver?: TakeOver,
  ): Promise<TaskLeases> {
    const leases = new TaskLeases(tasks, lease, takeOver);
    await leases.sweep();
    const sweep = () => leases.sweep().catch((error) => log.error({ err: error }, 'start tasks not settled'));
    leases.sweeper = setInterval(sweep, Math.max(lease.leaseMs / 2, 10)).unref();
    return leases;
  }

  /** Keeps the lease of a task `runner` runs in this process, until the returned function is called. */
  keep(taskId: string, runner?: string): () => void {
    return keepLease(() => this.tasks.touch(taskId, runner), this.lease.heartbeatMs);
  }

  /**
   * Hands a task `runner` holds over to the other replicas at once (a replica that closes): its runner cleared and
   * its lease aged past its end, while `runner` still holds it, so the next sweep of any replica claims it.
   */
  handOver(taskId: string, runner: string): Promise<boolean> {
    return this.tasks.release(taskId, runner, new Date(0).toISOString());
  }

  /** Stops sweeping: a sweep under way claims nothing more. */
  close(): void {
    this.closed = true;
    clearInterval(this.sweeper);
  }

  /** Settles what cannot run again, then claims and runs what can; answers the ids this replica took over. */
  private async sweep(): Promise<string[]> {
    const staleBefore = () => leaseExpiry(this.lease.leaseMs);
    await this.tasks.settleUnfinished(RESTARTED, staleBefore());
    await this.tasks.settleUnfinished(TRIED_TOO_OFTEN, staleBefore(), MAX_TAKEOVERS);
    if (!this.takeOver) return [];
    const claimed: string[] = [];
    for (const taskId of await this.tasks.abandoned(staleBefore())) {
      if (this.closed) break;
      const runner = randomUUID();
      if (!(await this.tasks.claim(taskId, runner, staleBefore(), MAX_TAKEOVERS))) continue;
      claimed.push(taskId);
      this.takeOver(taskId, runner);
    }
    return claimed;
  }
}
