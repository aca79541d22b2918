import { closeSync, fdatasync, fdatasyncSync, fsyncSync, openSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { type SqliteFile, inTransaction } from '@bosun/database';

/**
 * A write to commit: `apply` executes its SQL synchronously; `committed` runs once it is durable (once committed, for a
 * write queued as not durable), in order.
 */
export interface Write<T> {
  apply: () => T;
  committed?: (result: T) => void;
  /** Called when `apply` succeeded but its transaction was rolled back. */
  rolledBack?: () => void;
}

interface PendingWrite {
  write: Write<unknown>;
  durable: boolean;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: Error };

/** A write threw in a batch applied without savepoints. */
const WRITE_FAILED = Symbol('write failed');

interface Batch {
  writes: PendingWrite[];
  outcomes: Outcome[];
  /** False when no write of the batch waits for durability: it settles once committed, without an fsync. */
  durable: boolean;
}

/**
 * Group commit over a SQLite connection in WAL mode with `synchronous = NORMAL`: every write queued while the
 * previous batch was syncing goes into one transaction, and the WAL is then flushed with one `fdatasync` run on
 * the thread pool, so the event loop keeps taking requests while the disk works. That fsync per committed
 * transaction is what `synchronous = FULL` does inside COMMIT (blocking the loop); a write resolves, and its
 * `committed` runs, only after it. One batch syncs at a time, so a batch's data is never read back as durable
 * before it is: `hooks.onDurable` runs first, then the writes settle in order.
 */
export class GroupCommit {
  private pending: PendingWrite[] = [];
  private flushScheduled = false;
  private syncing: Batch | undefined;
  /** Set when an fsync failed: what was committed may not be on disk, so nothing more is acknowledged. */
  private failure: Error | undefined;
  /** Batches committed so far (each one transaction). */
  batches = 0;
  /** Fsyncs of the WAL so far (one per durable batch). */
  syncs = 0;
  private readonly directorySynced: Promise<void>;
  private directoryIsSynced = false;

  constructor(
    private readonly db: SqliteFile,
    private readonly walPath: string,
    private readonly hooks: {
      /** Runs in the batch's transaction after its writes (what is written once per batch). */
      beforeCommit: () => void;
      /** Runs once the batch is durable, before its writes settle. */
      onDurable: () => void;
    },
  ) {
    // SQLite syncs the directory of a WAL it created on its first sync; this does the same, once, before the
    // first batch's fsync (off the event loop: it would block start-up).
    this.directorySynced = syncDirectory(dirname(walPath)).then(() => {
      this.directoryIsSynced = true;
    });
    this.directorySynced.catch(() => undefined);
  }

  /**
   * Queues `write` for the next batch; resolves with its result once it is durable, or once it is committed
   * when `durable` is false (the next durable batch's fsync makes it durable too).
   */
  enqueue<T>(write: Write<T>, durable = true): Promise<T> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise<T>((resolve, reject) => {
      const pending = { write: write as Write<unknown>, durable, reject };
      this.pending.push({ ...pending, resolve: resolve as (value: unknown) => void });
      this.schedule();
    });
  }

  /** Commits and syncs everything queued or syncing, synchronously (on close). */
  drain(): void {
    this.flushScheduled = false;
    if (this.syncing) {
      const batch = this.syncing;
      this.syncing = undefined;
      this.synced(batch, this.syncWal());
    }
    const batch = this.commit();
    if (batch) this.synced(batch, this.syncWal());
  }

  private schedule(): void {
    if (this.flushScheduled || this.syncing) return;
    this.flushScheduled = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.flushScheduled = false;
    if (this.syncing) return;
    const batch = this.commit();
    if (!batch) return;
    if (!batch.durable) {
      this.settle(batch);
      if (this.pending.length > 0) this.schedule();
      return;
    }
    this.syncing = batch;
    let fd: number;
    try {
      // Opened per batch: the WAL SQLite writes now, whatever happened to an earlier one.
      fd = openSync(this.walPath, 'r');
    } catch (error) {
      this.syncing = undefined;
      this.synced(batch, error as Error);
      return;
    }
    const done = (error: Error | null | undefined) => {
      closeSync(fd);
      if (this.syncing !== batch) return; // settled by drain()
      this.syncing = undefined;
      this.synced(batch, error ?? undefined);
      if (this.pending.length > 0) this.schedule();
    };
    this.directorySynced.then(() => fdatasync(fd, done), done);
  }

  /**
   * Applies the queued writes in one transaction. A write that throws fails alone: the batch is then applied again
   * with a savepoint around each write (most batches have no failing write, and savepoints cost).
   */
  private commit(): Batch | undefined {
    const writes = this.pending;
    if (writes.length === 0) return undefined;
    this.pending = [];
    const fast = this.applyBatch(writes, false);
    const outcomes = fast === WRITE_FAILED ? this.applyBatch(writes, true) : fast;
    if (outcomes instanceof Error) {
      for (const { reject } of writes) reject(outcomes);
      return undefined;
    }
    this.batches++;
    return { writes, outcomes: outcomes as Outcome[], durable: writes.some((write) => write.durable) };
  }

  /**
   * One transaction of `writes`: their outcomes, or the error that rolled it back (`WRITE_FAILED` when, without
   * savepoints, a write threw). Writes that ran are told when their transaction is rolled back.
   */
  private applyBatch(writes: PendingWrite[], savepoints: boolean): Outcome[] | Error | typeof WRITE_FAILED {
    const outcomes: Outcome[] = [];
    let failed = false;
    try {
      inTransaction(this.db, () => {
        for (const { write } of writes) {
          if (!savepoints) {
            failed = true;
            outcomes.push({ ok: true, value: write.apply() });
            failed = false;
            continue;
          }
          try {
            outcomes.push({ ok: true, value: inTransaction(this.db, write.apply) });
          } catch (error) {
            outcomes.push({ ok: false, error: error as Error });
          }
        }
        this.hooks.beforeCommit();
      });
      return outcomes;
    } catch (error) {
      writes.forEach(({ write }, i) => {
        if (outcomes[i]?.ok) write.rolledBack?.();
      });
      return failed ? WRITE_FAILED : (error as Error);
    }
  }

  private syncWal(): Error | undefined {
    try {
      if (!this.directoryIsSynced) {
        const dir = openSync(dirname(this.walPath), 'r');
        try {
          fsyncSync(dir);
        } finally {
          closeSync(dir);
        }
        this.directoryIsSynced = true;
      }
      const fd = openSync(this.walPath, 'r');
      try {
        fdatasyncSync(fd);
      } finally {
        closeSync(fd);
      }
      return undefined;
    } catch (error) {
      return error as Error;
    }
  }

  private synced(batch: Batch, error: Error | undefined): void {
    this.syncs++;
    if (error) {
      this.failure = new Error(`The database could not be synced to disk: ${error.message}`);
      for (const { reject } of batch.writes) reject(this.failure);
      for (const { reject } of this.pending.splice(0)) reject(this.failure);
      return;
    }
    this.hooks.onDurable();
    this.settle(batch);
  }

  private settle(batch: Batch): void {
    batch.writes.forEach(({ write, resolve, reject }, i) => {
      const outcome = batch.outcomes[i] as Outcome;
      if (!outcome.ok) return reject(outcome.error);
      write.committed?.(outcome.value);
      resolve(outcome.value);
    });
  }
}

async function syncDirectory(path: string): Promise<void> {
  const dir = await open(path, 'r');
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
}
