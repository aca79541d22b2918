import type { SandboxStatus } from '@bosun/protocol';

/** When the runtime pauses and deletes sandboxes by itself (absent: never). */
export interface LifecycleOptions {
  /** A RUNNING sandbox idle this long is paused (OpenHands' `RUNTIME_IDLE_SECONDS`, 1200 s there). */
  idlePauseMs?: number;
  /** A PAUSED or ERROR sandbox unchanged this long loses its workspace and data: MISSING (`RUNTIME_DEAD_SECONDS`). */
  deadDeleteMs?: number;
  /** How often sandboxes are looked at (default: a quarter of the shorter of the two, from 1 s to 60 s). */
  sweepEveryMs?: number;
}

/** A sandbox as the sweep sees it. */
export interface SweepCandidate {
  id: string;
  status: SandboxStatus;
  changedAt: string;
  /** When bytes last went through its bridge (ms since the epoch; undefined where the backend sees no traffic). */
  lastTrafficAt: number | undefined;
  /** Its agent server's `idle_time` (seconds) and running conversations; undefined when it does not answer. */
  agentActivity(): Promise<AgentActivity | undefined>;
}

export interface AgentActivity {
  idleSeconds: number;
  running: number;
}

export interface SweepActions {
  candidates(): SweepCandidate[] | Promise<SweepCandidate[]>;
  pause(id: string, detail: string): Promise<void>;
  bury(id: string, detail: string): Promise<void>;
  /** A sweep that failed (the next one tries again). */
  failed?(error: Error): void;
}

/** The activity in an agent server's answers to `/server_info` and `/api/conversations/count?status=running`. */
export function agentActivityOf(serverInfo: unknown, runningCount: unknown): AgentActivity | undefined {
  const idleSeconds = (serverInfo as { idle_time?: unknown } | undefined)?.idle_time;
  if (typeof idleSeconds !== 'number' || typeof runningCount !== 'number') return undefined;
  return { idleSeconds, running: runningCount };
}

const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;

/**
 * Pauses idle sandboxes and deletes long-dead ones, every `sweepEveryMs`, for any backend (its `SweepActions`).
 * Idle: RUNNING (or handed out of a warm pool) for `idlePauseMs` at least, no byte through its bridge for that long
 * where there is one (the local backend: any request or WebSocket frame of a client; an idle keep-alive connection
 * is no use), and its agent server says
 * nothing happened for `idlePauseMs` (`/server_info` `idle_time`: no event appended to a conversation, no command
 * running) and no conversation runs (`/api/conversations/count?status=running`: a long LLM call appends nothing).
 * A sandbox whose agent server does not answer is not idle (it is starting, or about to be ERROR by itself).
 */
export class Sweeper {
  private readonly timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | undefined;

  constructor(
    private readonly options: LifecycleOptions,
    private readonly actions: SweepActions,
  ) {
    const { idlePauseMs, deadDeleteMs } = options;
    const shortest = Math.min(idlePauseMs ?? Number.POSITIVE_INFINITY, deadDeleteMs ?? Number.POSITIVE_INFINITY);
    if (shortest === Number.POSITIVE_INFINITY) return;
    const every = options.sweepEveryMs ?? Math.min(60_000, Math.max(1000, shortest / 4));
    this.timer = setInterval(() => {
      this.sweeping ??= this.sweep()
        .catch((error: Error) => this.actions.failed?.(error))
        .finally(() => {
          this.sweeping = undefined;
        });
    }, every);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.sweeping;
  }

  /** One look at every sandbox (each action goes through the runtime's queue of that sandbox). */
  async sweep(): Promise<void> {
    const now = Date.now();
    const { idlePauseMs, deadDeleteMs } = this.options;
    await Promise.all(
      (await this.actions.candidates()).map(async (sandbox) => {
        const quiet = (ms: number) => now - Date.parse(sandbox.changedAt) >= ms;
        if (
          sandbox.status === 'RUNNING' &&
          idlePauseMs !== undefined &&
          quiet(idlePauseMs) &&
          (await this.idle(sandbox, idlePauseMs))
        ) {
          const why = `paused by the runtime: idle for ${seconds(idlePauseMs)} (no request, no agent activity)`;
          await this.actions.pause(sandbox.id, why);
        }
        const settled = sandbox.status === 'PAUSED' || sandbox.status === 'ERROR';
        if (settled && deadDeleteMs !== undefined && quiet(deadDeleteMs)) {
          const why = `deleted by the runtime: ${sandbox.status} for more than ${seconds(deadDeleteMs)}`;
          await this.actions.bury(sandbox.id, why);
        }
      }),
    );
  }

  private async idle(sandbox: SweepCandidate, idlePauseMs: number): Promise<boolean> {
    if (sandbox.lastTrafficAt !== undefined && Date.now() - sandbox.lastTrafficAt < idlePauseMs) return false;
    const activity = await sandbox.agentActivity();
    return activity !== undefined && activity.running === 0 && activity.idleSeconds * 1000 >= idlePauseMs;
  }
}
