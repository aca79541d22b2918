import type { ConversationExecutionStatus, StoredEvent } from '@bosun/protocol';
import { type NewEvent, now, prepareEvent, statusEvent } from './new-event.ts';
import type { ConversationRecord } from './record.ts';
import type { ConversationRepository, EventRow } from './repository.ts';

export type Subscriber = (events: readonly EventRow[]) => void;

/**
 * A conversation loaded in memory. Every change goes through the store's ordered, durable write queue; once a
 * change is durable it is published to subscribers, so what a subscriber saw is always readable from the log.
 */
export class Conversation {
  /** Sequence number of the last durable event. */
  private committedSeq: number;
  /** Sequence number of the last event written into the store's current batch (ahead of `committedSeq`). */
  private writtenSeq: number;
  /** The record as the store's current batch wrote it (ahead of `record`, which is the durable one). */
  private writtenRecord: ConversationRecord;
  private readonly subscribers = new Set<Subscriber>();
  lastActive = Date.now();
  /** Set while a run is in progress; runs are exclusive. */
  activeRun: Promise<void> | undefined;
  /** What lives as long as the conversation is loaded (the agent, its shell); closed on eviction or deletion. */
  readonly resources = new Map<string, { close(): Promise<void> }>();

  /**
   * True while the conversation is being created (not yet visible to anyone else): its writes resolve once
   * committed, and `created()` makes them all durable with one fsync before the creation is answered.
   */
  private creating: boolean;
  private readonly onActivity: (() => void) | undefined;
  private readonly observer: ConversationObserver | undefined;

  constructor(
    readonly id: string,
    public record: ConversationRecord,
    lastSeq: number,
    private readonly store: ConversationRepository,
    {
      creating = false,
      onActivity,
      observer,
    }: {
      creating?: boolean;
      /** Told when events other than state updates are committed (the server's idle time starts again). */
      onActivity?: () => void;
      /** Told of every durable change (not of the writes of the creation: the service tells of it once). */
      observer?: ConversationObserver;
    } = {},
  ) {
    this.creating = creating;
    this.onActivity = onActivity;
    this.observer = observer;
    this.committedSeq = lastSeq;
    this.writtenSeq = lastSeq;
    this.writtenRecord = record;
  }

  get lastSeq(): number {
    return this.committedSeq;
  }

  get subscriberCount(): number {
    return this.subscribers.size;
  }

  /**
   * Registers `subscriber` for every event committed from now on. Registration is synchronous, so reading the
   * log and subscribing in the same tick misses nothing and repeats nothing.
   */
  subscribe(subscriber: Subscriber): () => void {
    this.subscribers.add(subscriber);
    return () => this.subscribers.delete(subscriber);
  }

  /**
   * Appends events durably and publishes them; resolves with the stored events. `change` (as for `update`)
   * changes the record in the same durable write.
   */
  append(events: NewEvent[], change?: (record: ConversationRecord) => void): Promise<StoredEvent[]> {
    const prepared = events.map(prepareEvent);
    return this.write((record) => {
      change?.(record);
      return { prepared, changed: change !== undefined };
    }, change !== undefined);
  }

  /**
   * Decides and writes in one step of the conversation's single writer, so a check and the act that depends on
   * it cannot be separated by another write. `decide` gets a copy of the record as the writes queued before it
   * left it (ahead of the durable `record`), may change it (as for `update`), and returns the events to append
   * with it; undefined writes nothing. Resolves with the stored events.
   */
  decide(decide: (record: ConversationRecord) => NewEvent[] | undefined): Promise<StoredEvent[]> {
    return this.write((record) => {
      const events = decide(record);
      return events && { prepared: events.map(prepareEvent), changed: true };
    });
  }

  private write(
    decide: (
      record: ConversationRecord,
    ) => { prepared: ReturnType<typeof prepareEvent>[]; changed: boolean } | undefined,
    /** False when `decide` neither reads nor changes the record (an append alone: no copy to make). */
    readsRecord = true,
  ): Promise<StoredEvent[]> {
    this.lastActive = Date.now();
    // A write of the creation is committed before it is durable: it is told of with the creation instead.
    const durable = !this.creating;
    return this.store
      .enqueue(
        {
          apply: () => {
            const next = readsRecord ? this.nextRecord() : this.writtenRecord;
            const decision = decide(next);
            if (!decision) return { stored: [], record: undefined, events: [] };
            const rows = decision.prepared.map((p) => p.row);
            const stored = rows.length ? this.store.insertEventsSql(this.id, this.writtenSeq, rows) : [];
            this.writtenSeq += stored.length;
            const record = decision.changed ? this.writeRecord(next) : undefined;
            return { stored, record, events: decision.prepared.map((p) => p.event) };
          },
          committed: ({ stored, record }) => {
            if (record) this.record = record;
            this.committedSeq = stored[stored.length - 1]?.seq ?? this.committedSeq;
            if (stored.some((event) => event.kind !== 'ConversationStateUpdateEvent')) this.onActivity?.();
            if (stored.length) this.publish(stored);
            if (durable && (stored.length || record)) this.observer?.committed(this, stored, record !== undefined);
          },
          rolledBack: () => this.rollBack(),
        },
        durable,
      )
      .then(({ events }) => events);
  }

  /** Releases the conversation's resources (on eviction or deletion). */
  async release(): Promise<void> {
    const resources = [...this.resources.values()];
    this.resources.clear();
    await Promise.allSettled(resources.map((resource) => resource.close()));
  }

  /**
   * Changes the record (and the catalog row) durably, without events. `change` gets a copy of the record and of
   * its `request` to assign fields of; anything deeper is shared with the current record: replace it, never
   * modify it in place.
   */
  async update(change: (record: ConversationRecord) => void): Promise<void> {
    await this.write((record) => {
      change(record);
      return { prepared: [], changed: true };
    });
  }

  /** Ends the creation: everything written so far is durable once this resolves. */
  async created(): Promise<void> {
    this.creating = false;
    await this.store.sync();
  }

  /** Moves to `status`, recording a `ConversationStateUpdateEvent` (`execution_status`) in the log. */
  async setStatus(status: ConversationExecutionStatus, extra: NewEvent[] = []): Promise<void> {
    // Decided against the status the writes before this one leave, so two equal changes record one event.
    await this.decide((record) => {
      if (record.execution_status === status && extra.length === 0) return undefined;
      record.execution_status = status;
      return [...extra, statusEvent(status)];
    });
  }

  /** A copy of the two levels a change assigns to; what lies deeper is shared with the written record. */
  private nextRecord(): ConversationRecord {
    return { ...this.writtenRecord, request: { ...this.writtenRecord.request } };
  }

  /** Writes the changed record into the catalog (inside a queued write); it becomes `record` once durable. */
  private writeRecord(next: ConversationRecord): ConversationRecord {
    next.updated_at = now();
    this.writtenRecord = next;
    // Serialized once per batch, from the last change of this conversation in it.
    this.store.updateConversationAtCommit(this.id, () => {
      const record = this.writtenRecord;
      return {
        id: this.id,
        status: record.execution_status,
        title: record.title,
        updated_at: record.updated_at,
        data: JSON.stringify(record),
      };
    });
    return next;
  }

  /** The batch was rolled back: what it wrote is gone. */
  private rollBack(): void {
    this.writtenSeq = this.committedSeq;
    this.writtenRecord = this.record;
  }

  private publish(stored: readonly EventRow[]): void {
    for (const subscriber of this.subscribers) {
      try {
        subscriber(stored);
      } catch {
        // A failing subscriber (a closed socket) must not stop the others.
      }
    }
  }
}

/**
 * Told of every durable change of every conversation, whether or not anyone follows it (webhooks follow the logs
 * through it). Called synchronously once the change is durable: an observer must only take note, never do work.
 */
export interface ConversationObserver {
  /** A conversation was created or forked; it is durable with the events it started with. */
  created(conversation: Conversation): void;
  /** Events were appended (in log order, durable) and/or the conversation's record changed. */
  committed(conversation: Conversation, events: readonly EventRow[], recordChanged: boolean): void;
  /** The conversation and its events are gone (`conversation` is what it was just before). */
  deleted(conversation: Conversation): void;
}
