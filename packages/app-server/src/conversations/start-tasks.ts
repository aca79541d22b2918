import { randomUUID } from 'node:crypto';
import { BosunClientError } from '@bosun/client';
import type { AppConversationStartRequest, AppConversationStartTask } from '@bosun/protocol';
import type { StartTaskRecord } from '../data/index.ts';
import type { Lease } from '../data/row-leases.ts';
import { conversationIdOf } from '../events/conversation-ids.ts';
import { whyNot } from './agent-refusal.ts';
import type { ConversationDeps } from './deps.ts';
import { redacted } from './redact.ts';
import { StartError } from './repository.ts';
import { maskedRequest, startTaskOf } from './start-request.ts';
import { StartRun, type Starter, taskChannel } from './start-run.ts';
import { TaskLeases } from './task-leases.ts';
import { type SealedStart, TaskTakenOver, UNREADABLE, openStart } from './task-takeover.ts';

export { whyNot } from './agent-refusal.ts';
export { type Starter, taskChannel } from './start-run.ts';

/** How long a replica that closes waits for its starts under way before handing them over to the others. */
export const HANDOVER_GRACE_MS = 2_000;

/**
 * Start tasks: a start is answered at once with a WORKING task; the rest runs here in the background, each step
 * persisted and published (`taskChannel`), until READY or ERROR with a detail a person can act on. A task whose
 * replica stopped is taken over by a live one and run again (task-takeover.ts, task-leases.ts).
 */
export class StartTasks {
  private readonly running = new Set<Promise<void>>();
  /** The runs under way here, by task: who runs it, and how to stop the run when it is handed over. */
  private readonly runs = new Map<string, { runner: string; stop: AbortController }>();
  private leases: TaskLeases | undefined;
  /** Tasks created here that nobody has run yet (a stream-start whose caller has not listened yet), by runner. */
  private readonly unrun = new Map<string, string>();
  /** Set when `close` begins: a start created, run or taken over from then on is handed over, not run here. */
  private closing = false;

  private constructor(
    private readonly deps: ConversationDeps,
    private readonly graceMs: number,
  ) {}

  /**
   * The service, once the tasks whose runner stopped are settled or taken over (and again every half lease: see
   * TaskLeases); with `takeOver: false` it takes none over (they are left to other replicas, or end ERROR when
   * they cannot run again). `graceMs`: how long `close` waits for the starts under way before handing them over.
   */
  static async open(
    deps: ConversationDeps,
    lease?: Lease,
    { takeOver = true, graceMs = HANDOVER_GRACE_MS } = {},
  ): Promise<StartTasks> {
    const tasks = new StartTasks(deps, graceMs);
    const run = takeOver ? (taskId: string, runner: string) => tasks.takeOver(taskId, runner) : undefined;
    tasks.leases = await TaskLeases.open(deps.repositories.startTasks, deps.log, lease, run);
    return tasks;
  }

  /** `request` as it may start: its plugins' sources trusted and pinned (`PluginTrustRequiredError` otherwise). */
  admit(starter: Starter, request: AppConversationStartRequest): Promise<AppConversationStartRequest> {
    return this.deps.pluginTrust.admit(starter.userId, request);
  }

  /**
   * A new WORKING task for `request` (not yet running: `run` it, once anyone who follows it listens), the start as
   * `admitted` sealed in it from the first moment: if this replica stops before it runs, another takes it over.
   */
  async create(
    starter: Starter,
    request: AppConversationStartRequest,
    admitted: AppConversationStartRequest = request,
  ): Promise<AppConversationStartTask> {
    const start: SealedStart = { request: admitted, orgId: starter.orgId };
    const record = await this.deps.repositories.startTasks.create({
      id: randomUUID(),
      userId: starter.userId,
      status: 'WORKING',
      request: JSON.stringify(maskedRequest(request)),
      start: JSON.stringify(start),
      // Fixed now: a run taking the task over makes the same conversation.
      conversationId: (request.conversation_id && conversationIdOf(request.conversation_id)) || randomUUID(),
      runner: randomUUID(),
    });
    // A start admitted while this replica closes is handed over at once: the next replica runs it, not a lease later.
    if (this.closing && record.runner) await this.handOver(record.id, record.runner);
    else if (record.runner) this.unrun.set(record.id, record.runner);
    return startTaskOf(record);
  }

  /** Runs the start of `task` in the background (its full request was sealed in it by `create`). */
  run(task: AppConversationStartTask, starter: Starter, request: AppConversationStartRequest): void {
    this.unrun.delete(task.id);
    this.track(async () => {
      const record = await this.deps.repositories.startTasks.getOfAnyUser(task.id);
      if (!record?.runner) return;
      await this.execute(record, record.runner, { request, orgId: starter.orgId });
    });
  }

  /** Calls `onTask` with each change of the task published from now on; answers how to stop. */
  follow(id: string, onTask: (task: AppConversationStartTask) => void): Promise<() => Promise<void>> {
    return this.deps.cache.subscribe(taskChannel(id), (message) => onTask(message as AppConversationStartTask));
  }

  /**
   * Stops sweeping, waits up to the grace for the starts under way (one near its end finishes here), then hands
   * the others over to the other replicas at once (see `TaskLeases.handOver`): each run is stopped, writing
   * nothing more, and its task is claimed by the next sweep of another replica instead of after a whole lease.
   * So are the tasks created here and not run yet, and any created, run or claimed from now on.
   */
  async close(): Promise<void> {
    this.closing = true;
    this.leases?.close();
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.graceMs);
    });
    await Promise.race([Promise.all(this.running), grace]);
    clearTimeout(timer);
    await Promise.all([
      ...[...this.runs].map(async ([taskId, { runner, stop }]) => {
        stop.abort();
        await this.handOver(taskId, runner);
      }),
      ...[...this.unrun].map(([taskId, runner]) => this.handOver(taskId, runner)),
    ]);
    this.unrun.clear();
  }

  /** Hands a task this replica holds over to the next replica (see `TaskLeases.handOver`). */
  private async handOver(taskId: string, runner: string): Promise<void> {
    const handed = await this.leases?.handOver(taskId, runner).catch((error) => {
      this.deps.log.error({ err: error, taskId }, 'start task: not handed over, it waits for its lease');
      return false;
    });
    if (handed) this.deps.log.warn({ taskId }, 'start task handed over: this app server closes');
  }

  /** Runs again, as `runner`, a task this replica claimed: the start sealed in it, by its user. */
  private takeOver(taskId: string, runner: string): void {
    this.track(async () => {
      const record = await this.deps.repositories.startTasks.getOfAnyUser(taskId);
      if (!record) return;
      let start: SealedStart | null;
      try {
        start = openStart(this.deps.repositories.startTasks, record);
      } catch (error) {
        this.deps.log.error({ taskId, why: whyNot(error) }, 'start task: its sealed request does not open');
        start = null;
      }
      const run = new StartRun(this.deps, record, runner);
      if (!start) return this.settled(run.change({ status: 'ERROR', detail: UNREADABLE }), taskId);
      this.deps.log.warn({ taskId, takeovers: record.takeovers }, 'start task taken over: its app server stopped');
      await this.execute(record, runner, start);
    });
  }

  /** Runs `work` in the background; `close` waits for it. */
  private track(work: () => Promise<void>): void {
    const run = work()
      .catch((error) => this.deps.log.error({ why: whyNot(error) }, 'start task: its run failed'))
      .finally(() => this.running.delete(run));
    this.running.add(run);
  }

  private async execute(record: StartTaskRecord, runner: string, start: SealedStart): Promise<void> {
    const taskId = record.id;
    // Run (or claimed by a sweep) once `close` began: too late to be waited for, handed over instead.
    if (this.closing) return this.handOver(taskId, runner);
    const { request, orgId } = start;
    const secrets = Object.values(request.secrets ?? {});
    const release = this.leases?.keep(taskId, runner);
    const stop = new AbortController();
    this.runs.set(taskId, { runner, stop });
    const run = new StartRun(this.deps, record, runner, stop.signal);
    try {
      await run.start({ userId: record.user_id, orgId }, request, secrets);
    } catch (error) {
      if (error instanceof TaskTakenOver || stop.signal.aborted) {
        this.deps.log.warn({ taskId }, 'start task: another app server took it over, this run stops');
        return;
      }
      const detail =
        error instanceof StartError
          ? error.message
          : error instanceof BosunClientError
            ? `The sandbox’s agent server failed (${error.method} ${error.path}): ${whyNot(error)}`
            : `The start failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`;
      const why = redacted(detail, secrets);
      // The log gets what the task says, not the error: an agent server's answer may quote what it was sent.
      if (!(error instanceof StartError)) this.deps.log.error({ taskId, why }, 'start task failed');
      await this.settled(run.change({ status: 'ERROR', detail: why }), taskId);
    } finally {
      release?.();
      if (this.runs.get(taskId)?.stop === stop) this.runs.delete(taskId);
    }
  }

  /** Waits for a change to ERROR; its failure is logged (a task taken over meanwhile is the other run's). */
  private async settled(change: Promise<void>, taskId: string): Promise<void> {
    await change.catch((failure) => {
      if (failure instanceof TaskTakenOver) return;
      this.deps.log.error({ err: failure, taskId }, 'start task: could not record its error');
    });
  }
}
