import type { StartTasksRepository } from '../data/repositories/start-tasks.ts';
import { LEASE, type Lease, keepLease, leaseExpiry } from '../row-leases.ts';

/** What a task says whose runner stopped before it finished (the app server running it stopped or restarted). */
export const RESTARTED = 'the app server running the start stopped: start the conversation again';

/**
 * Who runs which start task: the runner touches its task while it runs; a task nobody touched for a lease is one
 * whose app server stopped, and becomes ERROR (at open, then every half lease). Not "every unfinished task" at
 * start: with several replicas of the app, the others' starts are under way.
 */
export class TaskLeases {
  private sweeper: NodeJS.Timeout | undefined;

  private constructor(
    private readonly tasks: Pick<StartTasksRepository, 'settleUnfinished' | 'touch'>,
    private readonly lease: Lease,
  ) {}

  static async open(
    tasks: Pick<StartTasksRepository, 'settleUnfinished' | 'touch'>,
    log: { error(details: object, message: string): void },
    lease: Lease = LEASE,
  ): Promise<TaskLeases> {
    const leases = new TaskLeases(tasks, lease);
    await leases.settleAbandoned();
    const sweep = () => leases.settleAbandoned().catch((error) => log.error({ err: error }, 'start tasks not settled'));
    leases.sweeper = setInterval(sweep, Math.max(lease.leaseMs / 2, 10)).unref();
    return leases;
  }

  /** Keeps the lease of a task this process runs, until the returned function is called. */
  keep(taskId: string): () => void {
    return keepLease(() => this.tasks.touch(taskId), this.lease.heartbeatMs);
  }

  close(): void {
    clearInterval(this.sweeper);
  }

  private settleAbandoned(): Promise<number> {
    return this.tasks.settleUnfinished(RESTARTED, leaseExpiry(this.lease.leaseMs));
  }
}
