import type { Conversation } from '../conversations/conversation.ts';
import type { EventLog } from '../conversations/event-log.ts';
import type { EventRow } from '../conversations/repository.ts';

/** The most bytes of event JSON in one post (a post has at least one event, whatever its size). */
const MAX_BATCH_BYTES = 4 * 1024 * 1024;
/**
 * The most a conversation keeps in memory for posting: bytes of event JSON, and batches. Past that (a burst, a
 * slow receiver) its events are read back from the log when their turn comes.
 */
const MAX_BUFFERED_BYTES = 2 * 1024 * 1024;
const MAX_BUFFERED_BATCHES = 4;

/**
 * What a conversation still has to post. Its cursor (`delivered`) is the only thing that must be kept: committed
 * events wait in memory while they are few, contiguous and the receiver answers; otherwise (a burst, a receiver
 * that is down) they are dropped from memory and read back from the log after the cursor when their turn comes.
 */
export class Outbox {
  /** Sequence number of the last event delivered (or refused for good). */
  delivered: number;
  /** Sequence number of the last event of the post in flight (undefined: none). */
  private posting: number | undefined;
  /** Committed events after those delivered or in flight, contiguous. */
  private buffer: EventRow[] = [];
  private bufferBytes = 0;
  /** The record changed since the info was last looked at. */
  recordChanged = false;
  /** The conversation was deleted: this info (`deleting`) is the last thing to post. */
  finalInfo: string | undefined;
  /** Waiting to flush, or to retry (`retrying`). */
  timer: NodeJS.Timeout | undefined;
  retrying = false;
  /** The posts in progress, while they are. */
  run: Promise<void> | undefined;
  /** Failed tries in a row. */
  attempts = 0;

  constructor(
    public conversation: Conversation,
    delivered: number,
    private readonly batchSize: number,
  ) {
    this.delivered = delivered;
  }

  get id(): string {
    return this.conversation.id;
  }

  /** Committed events not delivered yet. */
  get undelivered(): number {
    return this.finalInfo === undefined ? this.conversation.lastSeq - this.delivered : 0;
  }

  /** Takes note of events just committed (in log order); kept in memory if they follow what is already queued. */
  noteEvents(events: readonly EventRow[]): void {
    const first = events[0];
    const last = this.buffer[this.buffer.length - 1]?.seq ?? this.posting ?? this.delivered;
    if (!first || first.seq !== last + 1) return;
    let bytes = 0;
    for (const event of events) bytes += event.json.length;
    const full = this.buffer.length + events.length > MAX_BUFFERED_BATCHES * this.batchSize;
    if (full || this.bufferBytes + bytes > MAX_BUFFERED_BYTES) {
      this.dropBuffer();
      return;
    }
    for (const event of events) this.buffer.push(event);
    this.bufferBytes += bytes;
  }

  /** The next events to post, in order (none when there is nothing to post). */
  nextBatch(log: EventLog): EventRow[] {
    if (this.undelivered <= 0) return [];
    const source =
      this.buffer.length > 0
        ? this.buffer
        : log.page(this.id, { afterSeq: this.delivered, descending: false, limit: this.batchSize });
    let count = 0;
    let bytes = 0;
    while (count < source.length && count < this.batchSize) {
      bytes += (source[count] as EventRow).json.length;
      if (count > 0 && bytes > MAX_BATCH_BYTES) break;
      count++;
    }
    const batch = source === this.buffer ? this.buffer.splice(0, count) : source.slice(0, count);
    if (source === this.buffer) for (const event of batch) this.bufferBytes -= event.json.length;
    this.posting = batch[batch.length - 1]?.seq;
    return batch;
  }

  /** The batch in flight was delivered (or refused for good): the cursor moves past it. */
  batchDone(): void {
    if (this.posting !== undefined) this.delivered = this.posting;
    this.posting = undefined;
  }

  /** The batch in flight failed: it will be read back from the log, with what follows it. */
  batchFailed(): void {
    this.posting = undefined;
    this.dropBuffer();
  }

  /** The conversation is gone, and its log with it: nothing more to post but `info`. */
  deleted(info: string): void {
    this.finalInfo = info;
    this.dropBuffer();
  }

  private dropBuffer(): void {
    this.buffer = [];
    this.bufferBytes = 0;
  }
}
