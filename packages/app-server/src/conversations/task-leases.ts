import type { StartTasksRepository } from '../data/repositories/start-tasks.ts';

/** What a task says whose runner stopped before it finished (the app server running it stopped or restarted). */
export const RESTARTED = 'the app server running the start stopped: start the conversation again';

/** How often a runner touches its task, and how long a task nobody touches is left to its runner. */
export interface TaskLease {
  heartbeatMs: number;
  leaseMs: number;
}

const LEASE: TaskLease = { heartbeatMs: 15_000, leaseMs: 60_000 };

/**
 * Who runs which start task: the runner touches its task while it runs; a task nobody touched for a lease is one
 * whose app server stopped, and becomes ERROR (at open, then every half lease). Not "every unfinished task" at
 * start: with several replicas of the app, the others' starts are under way.
 */
export class TaskLeases {
  private sweeper: NodeJS.Timeout | undefined;

  private constructor(
    private readonly tasks: Pick<StartTasksRepository, 'settleUnfinished' | 'touch'>,
    private readonly lease: TaskLease,
  ) {}

  static async open(
    tasks: Pick<StartTasksRepository, 'settleUnfinished' | 'touch'>,
    log: { error(details: object, message: string): void },
    lease: TaskLease = LEASE,
  ): Promise<TaskLeases> {
    const leases = new TaskLeases(tasks, lease);
    await leases.settleAbandoned();
    const sweep = () => leases.settleAbandoned().catch((error) => log.error({ err: error }, 'start tasks not settled'));
    leases.sweeper = setInterval(sweep, Math.max(lease.leaseMs / 2, 10)).unref();
    return leases;
  }

  /** Keeps the lease of a task this process runs, until the returned function is called. */
  keep(taskId: string): () => void {
    const heartbeat = setInterval(() => {
      this.tasks.touch(taskId).catch(() => undefined);
    }, this.lease.heartbeatMs);
    return () => clearInterval(heartbeat);
  }

  close(): void {
    clearInterval(this.sweeper);
  }

  private settleAbandoned(): Promise<number> {
    const staleBefore = new Date(Date.now() - this.lease.leaseMs).toISOString();
    return this.tasks.settleUnfinished(RESTARTED, staleBefore);
  }
}
