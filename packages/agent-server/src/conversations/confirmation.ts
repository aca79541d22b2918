import { pendingActions, rejection } from '@bosun/agent';
import type { StoredEvent } from '@bosun/protocol';
import type { Conversation } from './conversation.ts';
import { fromRow, statusEvent } from './new-event.ts';
import type { AgentRunner } from './runner.ts';
import { ConversationBusyError, pause, startRun } from './runs.ts';
import type { ConversationService } from './service.ts';

/** The reason of a rejection when the user gives none (the spec's default of `rejection_reason`). */
export const DEFAULT_REJECTION_REASON = 'User rejected the action';
const WAITING = 'waiting_for_confirmation';
export const SUPERSEDED_REASON = 'The user sent a new message instead of confirming; the action was not run.';
/** The longest delay `setTimeout` takes; longer deadlines are re-armed when it fires. */
const MAX_TIMER_MS = 2_147_483_647;

export class NotWaitingError extends Error {
  constructor(status: string) {
    super(`The conversation is not waiting for confirmation (it is ${status}).`);
  }
}

/**
 * Confirmation of the agent's actions, server side: answers to actions waiting for confirmation
 * (`respond_to_confirmation`) and the optional confirmation deadline.
 *
 * The deadline (`confirmation_timeout_seconds`, `on_confirmation_timeout`) counts from the moment the
 * conversation entered `waiting_for_confirmation`, as its `execution_status` update in the log says. A timer per
 * waiting conversation is armed when a run ends waiting, re-armed when the policy changes, and at startup for
 * every conversation found waiting: its remaining time is computed from the logged timestamp, so a deadline
 * that passed while the server was down is applied at once. When it fires: `deny` rejects the waiting actions
 * (one `UserRejectObservation` each, saying the deadline passed) and starts a run so the agent can go on;
 * `pause` pauses the conversation (`PauseEvent`, `paused`); a later run asks for confirmation again.
 *
 * A user message sent while actions wait rejects them first (see `supersede`). Changing the policy while actions
 * wait does not decide for the user: they wait for an answer (or the deadline) all the same.
 *
 * Answers and expiries of one conversation are serialized, and each checks the status inside the same durable
 * write that changes it, so two answers never both apply.
 */
export class ConfirmationControl {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly chains = new Map<string, Promise<unknown>>();
  private runner: AgentRunner | undefined;
  private closed = false;

  constructor(
    private readonly service: ConversationService,
    private readonly onError: (error: unknown, conversationId: string) => void = () => undefined,
  ) {}

  /** `runner`, arming the deadline of each run that ends waiting for confirmation. Runs go through it. */
  wrap(runner: AgentRunner): AgentRunner {
    const wrapped = Object.create(runner) as AgentRunner;
    wrapped.run = async (conversation, signals) => {
      try {
        await runner.run(conversation, signals);
      } finally {
        this.sync(conversation);
      }
    };
    wrapped.beforeUserMessage = async (conversation) => {
      await runner.beforeUserMessage?.(conversation);
      await this.supersede(conversation);
    };
    this.runner = wrapped;
    return wrapped;
  }

  /**
   * A user message sent while actions wait for confirmation is not an answer to them (OpenHands would run them
   * on the next run): they are rejected first, so the message follows their results and the LLM reads a valid
   * history (each call answered right after it was made).
   */
  private supersede(conversation: Conversation): Promise<void> {
    if (conversation.record.execution_status !== WAITING) return Promise.resolve();
    return this.exclusive(conversation.id, async () => {
      if (conversation.record.execution_status !== WAITING) return;
      await settled(conversation);
      try {
        await this.reject(conversation, SUPERSEDED_REASON);
      } catch (error) {
        if (!(error instanceof NotWaitingError)) throw error;
      }
    });
  }

  /** Accepts (runs) or rejects the actions waiting for confirmation; `NotWaitingError` when none wait. */
  respond(conversation: Conversation, answer: { accept: boolean; reason?: string }): Promise<void> {
    return this.exclusive(conversation.id, async () => {
      assertWaiting(conversation);
      await settled(conversation);
      assertWaiting(conversation);
      if (answer.accept) {
        this.clearTimer(conversation.id);
        try {
          // A run started from `waiting_for_confirmation` runs the pending actions first.
          await startRun(conversation, this.runnerOrThrow());
        } catch (error) {
          this.sync(conversation); // still waiting: keep its deadline
          throw error;
        }
      } else {
        await this.reject(conversation, answer.reason ?? DEFAULT_REJECTION_REASON);
      }
    });
  }

  /** Arms, re-arms or clears the deadline of `conversation` from its current state. */
  sync(conversation: Conversation): void {
    this.clearTimer(conversation.id);
    if (this.closed) return;
    const { request, execution_status: status } = conversation.record;
    const seconds = request.confirmation_timeout_seconds;
    if (status !== WAITING || !seconds) return;
    const since = this.waitingSince(conversation.id) ?? Date.now();
    const delay = Math.min(MAX_TIMER_MS, Math.max(0, since + seconds * 1000 - Date.now()));
    const id = conversation.id;
    const timer = setTimeout(() => {
      this.timers.delete(id);
      this.expire(id).catch((error: unknown) => this.onError(error, id));
    }, delay);
    timer.unref();
    this.timers.set(id, timer);
  }

  /**
   * Arms the deadlines of the conversations found waiting at startup (expired ones are applied at once). Only
   * those with a deadline are loaded.
   */
  recover(): number {
    let armed = 0;
    for (const { id, record } of this.service.recordsWithStatus(WAITING)) {
      if (!record.request.confirmation_timeout_seconds) continue;
      const conversation = this.service.get(id);
      if (conversation) {
        this.sync(conversation);
        armed++;
      }
    }
    return armed;
  }

  /** Whether a deadline timer is armed for the conversation (for tests and diagnostics). */
  armed(conversationId: string): boolean {
    return this.timers.has(conversationId);
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private async expire(id: string): Promise<void> {
    if (this.closed) return;
    const conversation = this.service.get(id);
    if (!conversation) return;
    await this.exclusive(id, async () => {
      const { request, execution_status: status } = conversation.record;
      const seconds = request.confirmation_timeout_seconds;
      if (status !== WAITING || !seconds) return;
      const due = (this.waitingSince(id) ?? 0) + seconds * 1000;
      if (due > Date.now()) {
        // A newer wait, a longer deadline, or a timer capped at MAX_TIMER_MS.
        this.sync(conversation);
        return;
      }
      await settled(conversation);
      if (request.on_confirmation_timeout === 'pause') {
        await pause(conversation);
        return;
      }
      try {
        await this.reject(
          conversation,
          `No answer within the confirmation deadline (${seconds} s): the action was not run.`,
        );
      } catch (error) {
        // Something else (a pause, a run) changed the status meanwhile: the deadline no longer applies.
        if (error instanceof NotWaitingError) return;
        throw error;
      }
      try {
        await startRun(conversation, this.runnerOrThrow());
      } catch (error) {
        if (!(error instanceof ConversationBusyError)) throw error;
      }
    });
  }

  /** One `UserRejectObservation` per pending action and `idle`, in one write that requires the waiting status. */
  private async reject(conversation: Conversation, reason: string): Promise<void> {
    this.clearTimer(conversation.id);
    const rejections = pendingActions(this.history(conversation.id)).map((action) => rejection(action, reason, 'user'));
    await conversation.append([...rejections, statusEvent('idle')], (record) => {
      if (record.execution_status !== WAITING) throw new NotWaitingError(record.execution_status);
      record.execution_status = 'idle';
    });
  }

  private history(id: string): StoredEvent[] {
    return this.service.events.history(id);
  }

  /** When the conversation last entered `waiting_for_confirmation` (ms), if that is its latest status change. */
  private waitingSince(id: string): number | undefined {
    const pageSize = 200;
    for (let fromSeq: number | undefined; ; ) {
      const page = this.service.events.page(id, {
        kind: 'ConversationStateUpdateEvent',
        descending: true,
        limit: pageSize,
        ...(fromSeq !== undefined ? { fromSeq } : {}),
      });
      for (const row of page) {
        const event = fromRow(row) as StoredEvent<'ConversationStateUpdateEvent'>;
        if (event.key !== 'execution_status') continue;
        return event.value === WAITING ? Date.parse(event.timestamp) : undefined;
      }
      const last = page.at(-1);
      if (page.length < pageSize || !last) return undefined;
      fromSeq = last.seq - 1;
    }
  }

  private clearTimer(id: string): void {
    const timer = this.timers.get(id);
    if (timer) clearTimeout(timer);
    this.timers.delete(id);
  }

  private runnerOrThrow(): AgentRunner {
    if (!this.runner) throw new Error('ConfirmationControl.wrap was not called');
    return this.runner;
  }

  /** Runs `task` after the previous control task of the same conversation has settled. */
  private exclusive<T>(id: string, task: () => Promise<T>): Promise<T> {
    const previous = this.chains.get(id) ?? Promise.resolve();
    const next = previous.then(task, task);
    const tail = next.catch(() => undefined);
    this.chains.set(id, tail);
    void tail.then(() => {
      if (this.chains.get(id) === tail) this.chains.delete(id);
    });
    return next;
  }
}

function assertWaiting(conversation: Conversation): void {
  const status = conversation.record.execution_status;
  if (status !== WAITING) throw new NotWaitingError(status);
}

/** Waits until the run that stopped to wait for confirmation has fully ended (its promise settled). */
async function settled(conversation: Conversation): Promise<void> {
  for (let i = 0; conversation.activeRun && i < 100; i++) {
    await conversation.activeRun.catch(() => undefined);
    await new Promise((resolve) => setImmediate(resolve));
  }
}
