import type { FastifyBaseLogger } from 'fastify';
import type { Conversation } from '../conversations/conversation.ts';
import type { ConversationObserver } from '../conversations/conversation.ts';
import type { EventLog } from '../conversations/event-log.ts';
import { conversationInfo } from '../conversations/info.ts';
import type { EventRow } from '../conversations/repository.ts';
import type { PendingCursor, WebhookCursors } from './cursors.ts';
import { infoSignature } from './info-signature.ts';
import { Outbox } from './outbox.ts';
import { type Backoff, postJson, retryDelay } from './post.ts';

export interface WebhookSettings {
  /** Events go to `<baseUrl>/events/<conversation id>`, conversations' info to `<baseUrl>/conversations`. */
  baseUrl: string;
  /** How long committed events may wait to be posted together (0: at once). */
  flushMs?: number;
  /** The most events in one post. */
  batchSize?: number;
  backoff?: Backoff;
  /** A post without an answer this long failed. */
  requestTimeoutMs?: number;
  /** How long closing waits for what is left to be posted. */
  closeTimeoutMs?: number;
}

export interface WebhookDeps {
  events: EventLog;
  cursors: WebhookCursors;
  logger: FastifyBaseLogger;
  /** Sent as `X-Session-API-Key` (the receiver knows the sandbox by it). */
  sessionKey?: string;
}

/** One post to make: where, what, and what its outcome changes. */
interface Post {
  webhook: 'events' | 'conversations';
  url: string;
  body: string;
  done(): void;
  failed(): void;
}

/**
 * Posts every committed event of every conversation, in order, to the application, and each conversation's info
 * when its status, title, tags, model or metrics change (only the newest info). Nothing here runs on a write's
 * path: a commit only takes note (and keeps the events while few), and the posts run from timers. Per
 * conversation one post is in flight at a time; a failed post is retried with a growing delay, from the
 * conversation's cursor in the log, so a receiver that is down costs no memory, and a stop leaves the cursors of
 * what is undelivered on disk for the next start.
 */
export class WebhookSender implements ConversationObserver {
  private readonly outboxes = new Map<string, Outbox>();
  /** Signature of the info last delivered for each conversation (see `infoSignature`). */
  private readonly posted = new Map<string, string>();
  /** Cursors a previous run left undelivered, until their conversation's outbox takes them over. */
  private readonly pending: Map<string, PendingCursor>;
  private readonly aborter = new AbortController();
  private readonly baseUrl: string;
  private readonly flushMs: number;
  private readonly batchSize: number;
  private readonly backoff: Backoff;
  private readonly headers: Record<string, string>;
  private closing = false;
  /** The cursors are closed: nothing more is saved. */
  private closed = false;

  constructor(
    private readonly settings: WebhookSettings,
    private readonly deps: WebhookDeps,
  ) {
    this.baseUrl = settings.baseUrl.replace(/\/+$/, '');
    this.flushMs = settings.flushMs ?? 100;
    this.batchSize = settings.batchSize ?? 50;
    this.backoff = settings.backoff ?? { firstMs: 500, maxMs: 30_000 };
    this.headers = deps.sessionKey ? { 'X-Session-API-Key': deps.sessionKey } : {};
    this.pending = deps.cursors.all();
  }

  created(conversation: Conversation): void {
    const outbox = this.outboxFor(conversation, 0);
    outbox.recordChanged = true;
    this.wake(outbox);
  }

  committed(conversation: Conversation, events: readonly EventRow[], recordChanged: boolean): void {
    const outbox = this.outboxFor(conversation, (events[0]?.seq ?? conversation.lastSeq + 1) - 1);
    outbox.noteEvents(events);
    if (recordChanged) outbox.recordChanged = true;
    this.wake(outbox);
  }

  deleted(conversation: Conversation): void {
    const outbox = this.outboxFor(conversation, conversation.lastSeq);
    outbox.deleted(JSON.stringify({ ...conversationInfo(conversation), execution_status: 'deleting' }));
    this.wake(outbox, true);
  }

  /** Starts posting what a previous run left undelivered (`get` loads a conversation; undefined: gone). */
  resume(get: (id: string) => Conversation | undefined): void {
    for (const [id, cursor] of this.pending) {
      const conversation = get(id);
      if (!conversation) {
        this.pending.delete(id);
        this.clearCursor(id);
        continue;
      }
      this.wake(this.outboxFor(conversation, cursor.delivered), true);
    }
  }

  /**
   * Posts what is left, waiting at most `closeTimeoutMs` (failures are not retried any more), then aborts what
   * is in flight. The cursors of what is undelivered stay on disk.
   */
  async close(): Promise<void> {
    this.closing = true;
    const runs: Promise<void>[] = [];
    for (const outbox of this.outboxes.values()) {
      clearTimeout(outbox.timer);
      outbox.timer = undefined;
      runs.push(outbox.run ?? this.start(outbox));
    }
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise((resolve) => {
      timer = setTimeout(resolve, this.settings.closeTimeoutMs ?? 2000);
    });
    await Promise.race([Promise.allSettled(runs), deadline]);
    clearTimeout(timer);
    this.aborter.abort();
    await Promise.allSettled(runs);
    this.closed = true;
    this.deps.cursors.close();
  }

  private outboxFor(conversation: Conversation, deliveredSoFar: number): Outbox {
    const existing = this.outboxes.get(conversation.id);
    if (existing) {
      // The conversation was evicted and loaded again: the new object is the one that moves on.
      existing.conversation = conversation;
      return existing;
    }
    const saved = this.pending.get(conversation.id);
    this.pending.delete(conversation.id);
    const outbox = new Outbox(conversation, saved?.delivered ?? deliveredSoFar, this.batchSize);
    if (saved?.info) outbox.recordChanged = true;
    this.outboxes.set(conversation.id, outbox);
    // On disk right after the commit that made it (not on the commit's path), rather than when the flush starts:
    // a crash in between would leave these events unposted after the restart.
    if (!saved) setImmediate(() => this.saveCursor(outbox));
    return outbox;
  }

  /** Schedules a flush: after `flushMs`, or at once when a batch is full (never while posting or backing off). */
  private wake(outbox: Outbox, now = false): void {
    if (this.closing || outbox.run || outbox.retrying) return;
    const soon = now || outbox.undelivered >= this.batchSize;
    if (outbox.timer && !soon) return;
    clearTimeout(outbox.timer);
    outbox.timer = setTimeout(() => this.start(outbox), soon ? 0 : this.flushMs);
    outbox.timer.unref();
  }

  private start(outbox: Outbox): Promise<void> {
    outbox.timer = undefined;
    outbox.retrying = false;
    const run: Promise<void> = this.drain(outbox).then(
      () => undefined,
      (error: unknown) => {
        // Not a post's failure (those are outcomes): reading the log, say. Tried again like a failed post.
        this.deps.logger.error({ err: error, conversation_id: outbox.id }, 'webhook delivery failed');
        outbox.batchFailed();
        this.retryLater(outbox);
      },
    );
    // Set after: a drain with nothing to post has finished (and dropped its outbox) before this line.
    if (this.outboxes.get(outbox.id) === outbox) outbox.run = run;
    void run.then(() => {
      if (outbox.run === run) outbox.run = undefined;
    });
    return run;
  }

  /** Posts until nothing is left (the outbox is then dropped) or a post fails (a retry is then scheduled). */
  private async drain(outbox: Outbox): Promise<void> {
    this.saveCursor(outbox);
    for (let post = this.nextPost(outbox); post; post = this.nextPost(outbox)) {
      const outcome = await postJson(
        {
          url: post.url,
          headers: this.headers,
          timeoutMs: this.settings.requestTimeoutMs ?? 10_000,
          signal: this.aborter.signal,
        },
        post.body,
      );
      if (outcome.kind === 'retry') {
        post.failed();
        const log = { conversation_id: outbox.id, webhook: post.webhook, attempt: outbox.attempts + 1 };
        this.deps.logger.warn({ ...log, why: outcome.why }, 'webhook post failed; it will be retried');
        this.retryLater(outbox, outcome.afterMs);
        return;
      }
      if (outcome.kind === 'refused') {
        const log = { conversation_id: outbox.id, webhook: post.webhook, status: outcome.status };
        this.deps.logger.warn(log, 'webhook post refused; dropped');
      }
      outbox.attempts = 0;
      post.done();
      if (post.webhook === 'events') this.saveCursor(outbox);
    }
    this.outboxes.delete(outbox.id);
    this.clearCursor(outbox.id);
  }

  /** Tries the outbox again after a growing delay (not once closing: its cursor is saved for the next start). */
  private retryLater(outbox: Outbox, askedMs?: number): void {
    outbox.attempts++;
    this.saveCursor(outbox);
    if (this.closing) return;
    outbox.retrying = true;
    outbox.timer = setTimeout(() => this.start(outbox), retryDelay(this.backoff, outbox.attempts, askedMs));
    outbox.timer.unref();
  }

  /** The next post of a conversation: its first info, then its events in order, then its newest info. */
  private nextPost(outbox: Outbox): Post | undefined {
    const { id } = outbox;
    if (outbox.finalInfo !== undefined) {
      return {
        webhook: 'conversations',
        url: `${this.baseUrl}/conversations`,
        body: outbox.finalInfo,
        done: () => {
          outbox.finalInfo = undefined;
          this.posted.delete(id);
        },
        failed: () => undefined,
      };
    }
    const signature = outbox.recordChanged ? infoSignature(outbox.conversation.record) : undefined;
    const infoDue = signature !== undefined && signature !== this.posted.get(id);
    if (!infoDue) outbox.recordChanged = false;
    if (!(infoDue && !this.posted.has(id))) {
      const batch = outbox.nextBatch(this.deps.events);
      if (batch.length > 0) {
        return {
          webhook: 'events',
          url: `${this.baseUrl}/events/${id}`,
          body: `[${batch.map((event) => event.json).join(',')}]`,
          done: () => outbox.batchDone(),
          failed: () => outbox.batchFailed(),
        };
      }
    }
    if (!infoDue) return undefined;
    outbox.recordChanged = false;
    return {
      webhook: 'conversations',
      url: `${this.baseUrl}/conversations`,
      body: JSON.stringify(conversationInfo(outbox.conversation)),
      done: () => this.posted.set(id, signature),
      failed: () => {
        outbox.recordChanged = true;
      },
    };
  }

  /** Keeps the outbox's cursor on disk while it has something left to post. */
  private saveCursor(outbox: Outbox): void {
    if (this.closed || this.outboxes.get(outbox.id) !== outbox) return;
    try {
      const info = outbox.recordChanged || outbox.finalInfo !== undefined;
      this.deps.cursors.save(outbox.id, { delivered: outbox.delivered, info });
    } catch (error) {
      this.deps.logger.error({ err: error, conversation_id: outbox.id }, 'webhook cursor not saved');
    }
  }

  private clearCursor(id: string): void {
    try {
      this.deps.cursors.clear(id);
    } catch (error) {
      this.deps.logger.error({ err: error, conversation_id: id }, 'webhook cursor not cleared');
    }
  }
}
