import type { ConversationOfSandbox, EventsRepository } from '../data/index.ts';
import type { Sandbox, Sandboxes } from '../sandboxes/index.ts';
import { agentSourceOf } from './agent-source.ts';
import type { EventIntake, EventsLogger } from './intake.ts';

export interface EventCatchUpOptions {
  repository: EventsRepository;
  sandboxes: Sandboxes;
  intake: EventIntake;
  log: EventsLogger;
  /** How often the conversations of running sandboxes are swept for events the app lacks (0: never). */
  sweepIntervalMs: number;
}

/**
 * What keeps the app's events complete when webhooks are not enough (an app restart, a lost or refused webhook):
 * the app pulls from the agent server what it lacks, for every conversation of a sandbox when the sandbox
 * becomes RUNNING (start and resume), and for every conversation of a running sandbox at each sweep.
 */
export class EventCatchUp {
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | undefined;
  private closed = false;

  constructor(private readonly options: EventCatchUpOptions) {}

  /** Starts the periodic sweep. */
  start(): void {
    const { sweepIntervalMs } = this.options;
    if (sweepIntervalMs <= 0 || this.timer) return;
    this.timer = setInterval(() => void this.sweep(), sweepIntervalMs);
    this.timer.unref();
  }

  /** Pulls the events of every conversation of `sandbox`, which has just become RUNNING. */
  sandboxRunning(sandbox: Sandbox): Promise<void> {
    if (this.closed) return Promise.resolve();
    return this.options.repository
      .conversationsOfSandbox(sandbox.id)
      .then((conversations) =>
        this.pullAll(
          sandbox,
          conversations.filter((conversation) => conversation.user_id === sandbox.ownerId),
        ),
      )
      .catch((error: Error) => this.options.log.warn({ sandbox_id: sandbox.id, err: error }, 'event catch-up failed'));
  }

  /** One sweep (a sweep still under way is joined, not doubled); resolves when its pulls have ended. */
  sweep(): Promise<void> {
    this.sweeping ??= this.sweepOnce()
      .catch((error: Error) => this.options.log.warn({ err: error }, 'event sweep failed'))
      .finally(() => {
        this.sweeping = undefined;
      });
    return this.sweeping;
  }

  /** Stops the sweep; resolves once the one under way has ended. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.sweeping;
  }

  private async sweepOnce(): Promise<void> {
    if (this.closed) return;
    const bySandbox = new Map<string, ConversationOfSandbox[]>();
    for (const conversation of await this.options.repository.conversationsOfRunningSandboxes()) {
      const key = `${conversation.user_id}/${conversation.sandbox_id}`;
      bySandbox.set(key, [...(bySandbox.get(key) ?? []), conversation]);
    }
    await Promise.all(
      [...bySandbox.values()].map(async (conversations) => {
        const [{ user_id, sandbox_id }] = conversations as [ConversationOfSandbox];
        const sandbox = await this.options.sandboxes.get(user_id, sandbox_id);
        if (sandbox) await this.pullAll(sandbox, conversations);
      }),
    );
  }

  private async pullAll(sandbox: Sandbox, conversations: readonly ConversationOfSandbox[]): Promise<void> {
    const source = agentSourceOf(sandbox);
    if (!source) return;
    // One conversation after another: a sandbox's agent server is not asked many things at once.
    for (const conversation of conversations) {
      await this.options.intake.pull({ id: conversation.id, userId: conversation.user_id }, source);
    }
  }
}
