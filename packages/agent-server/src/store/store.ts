import { join } from 'node:path';
import { type SqlValue, type SqliteFile, type SqliteStatement, closeSqliteFile, openSqliteFile } from '@bosun/database';
import { GroupCommit, type Write } from './group-commit.ts';
import { type CatalogQuery, type EventFilter, catalogQuerySql, eventFilterSql } from './queries.ts';
import { SCHEMA_SQL } from './schema.sql.ts';
import { openSealedRecords } from './sealed-records.ts';
import type { SecretsKeyring } from './sealed-secrets.ts';
import type { SecretsKeyOptions } from './secrets-key.ts';

export type { CatalogQuery, EventFilter, Write };

/** An event as the log holds it: its place in the conversation and its JSON exactly as served. */
export interface EventRow {
  seq: number;
  id: string;
  kind: string;
  json: string;
}

/** What the log needs to know of an event to index it. */
export interface EventToAppend {
  id: string;
  kind: string;
  source?: string;
  timestamp?: string;
  /** Lowercased text that `body` search matches (messages only). */
  searchText?: string;
  json: string;
}

export interface CatalogRow {
  id: string;
  status: string;
  title: string | null;
  created_at: string;
  updated_at: string;
  last_seq: number;
  data: string;
}

/** The columns of a catalog row that change with its record. */
export type ConversationUpdate = Omit<CatalogRow, 'created_at' | 'last_seq'>;

export interface EventPageQuery extends EventFilter {
  /** First seq to return (inclusive), in the direction of the sort. */
  fromSeq?: number;
  /** Only events after this seq (exclusive; ascending order only). */
  afterSeq?: number;
  descending: boolean;
  limit: number;
}

/**
 * The durable store: SQLite in WAL mode. Writes are queued and committed together (group commit, see
 * `GroupCommit`): one transaction and one fsync of the WAL per batch, so a committed write survives a crash of
 * the process or the machine, and a write resolves only once it has. What is not durable yet is not read back
 * (events, a new conversation).
 */
export class Store {
  readonly db: SqliteFile;
  private readonly writes: GroupCommit;
  private readonly statements = new Map<string, SqliteStatement>();
  /** Seals conversation records (`data`), which hold the secrets, at rest. */
  private readonly keyring: SecretsKeyring;
  /** Conversation id -> first seq of the events appended since the last fsync: not readable until durable. */
  private readonly syncingEvents = new Map<string, number>();
  /** Conversations created since the last fsync: not readable until durable. */
  private readonly syncingConversations = new Set<string>();
  /** Catalog rows to write at the end of the current batch: the last version of each conversation's. */
  private readonly rowsAtCommit = new Map<string, () => ConversationUpdate>();
  /** Conversations the current batch appended events to: their `last_seq` is written at its end. */
  private readonly appendedTo = new Set<string>();

  constructor(dataDir: string, secrets: SecretsKeyOptions = {}) {
    const file = join(dataDir, 'bosun.db');
    this.db = openSqliteFile(file, [
      'journal_mode = WAL',
      // The WAL is fsynced after every committed batch by `GroupCommit` (off the event loop): with that, NORMAL
      // is as durable as FULL, whose fsync would block the loop inside COMMIT.
      'synchronous = NORMAL',
      'busy_timeout = 5000',
    ]);
    this.db.exec(SCHEMA_SQL);
    try {
      this.keyring = openSealedRecords(this.db, dataDir, secrets);
    } catch (error) {
      closeSqliteFile(this.db);
      throw error;
    }
    this.writes = new GroupCommit(this.db, `${file}-wal`, {
      beforeCommit: () => this.writeOncePerBatch(),
      onDurable: () => {
        this.syncingEvents.clear();
        this.syncingConversations.clear();
      },
    });
  }

  close(): void {
    this.writes.drain();
    closeSqliteFile(this.db);
  }

  /**
   * Queues `write` to run in the next group commit; resolves with its result once it is durable (once it is
   * committed when `durable` is false: then nothing may be acknowledged from it before `sync()`).
   */
  enqueue<T>(write: Write<T>, durable = true): Promise<T> {
    return this.writes.enqueue(write, durable);
  }

  /** Resolves once everything committed so far is durable. */
  async sync(): Promise<void> {
    await this.writes.enqueue({ apply: () => undefined });
  }

  /** Batches committed so far: each is one transaction, however many writes it held. */
  get batchesCommitted(): number {
    return this.writes.batches;
  }

  /** Fsyncs of the WAL so far: one per batch that had a write waiting for durability. */
  get syncsDone(): number {
    return this.writes.syncs;
  }

  private statement(sql: string): SqliteStatement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      // A row given for its named parameters may hold more than they name.
      statement.setAllowUnknownNamedParameters(true);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  // ---- catalog ----

  /** The catalog row of a conversation, its `data` (the record) in clear. */
  getConversation(id: string): CatalogRow | undefined {
    if (this.syncingConversations.has(id)) return undefined;
    const row = this.statement('SELECT * FROM conversations WHERE id = ?').get(id) as CatalogRow | undefined;
    return row && { ...row, data: this.keyring.openRecord(row.id, row.data) };
  }

  /** Inserts a catalog row; its `data` is sealed. */
  insertConversationSql(row: CatalogRow): void {
    this.statement(
      'INSERT INTO conversations (id, status, title, created_at, updated_at, last_seq, data) VALUES (@id, @status, @title, @created_at, @updated_at, @last_seq, @data)',
    ).run({ ...row, data: this.keyring.sealRecord(row.id, row.data) });
    this.syncingConversations.add(row.id);
  }

  /** Updates a catalog row; its `data` is sealed. */
  updateConversationSql(row: ConversationUpdate): void {
    this.statement(
      'UPDATE conversations SET status = @status, title = @title, updated_at = @updated_at, data = @data WHERE id = @id',
    ).run({ ...row, data: this.keyring.sealRecord(row.id, row.data) });
  }

  /**
   * Writes a conversation's catalog row at the end of the current batch (inside a queued write): when several
   * writes of one batch change a conversation, its row is built and written once, from the last of them.
   */
  updateConversationAtCommit(id: string, row: () => ConversationUpdate): void {
    this.rowsAtCommit.set(id, row);
  }

  /** What a batch writes once however many of its writes asked for it (runs inside its transaction). */
  private writeOncePerBatch(): void {
    const rows = [...this.rowsAtCommit.values()];
    const appendedTo = [...this.appendedTo];
    this.rowsAtCommit.clear();
    this.appendedTo.clear();
    for (const row of rows) this.updateConversationSql(row());
    // From the log itself: a write whose savepoint was undone leaves nothing behind to count.
    const lastSeq = this.statement(
      'UPDATE conversations SET last_seq = (SELECT coalesce(max(seq), 0) FROM events WHERE conversation_id = ?) WHERE id = ?',
    );
    for (const id of appendedTo) lastSeq.run(id, id);
  }

  deleteConversationSql(id: string): void {
    this.rowsAtCommit.delete(id);
    this.appendedTo.delete(id);
    this.statement('DELETE FROM events WHERE conversation_id = ?').run(id);
    this.statement('DELETE FROM conversations WHERE id = ?').run(id);
  }

  conversationIdsWithStatus(status: string): string[] {
    return (this.statement('SELECT id FROM conversations WHERE status = ?').all(status) as { id: string }[]).map(
      (row) => row.id,
    );
  }

  countConversations(status?: string): number {
    const sql = status
      ? 'SELECT count(*) AS n FROM conversations WHERE status = ?'
      : 'SELECT count(*) AS n FROM conversations';
    return (this.statement(sql).get(...(status ? [status] : [])) as { n: number }).n;
  }

  /** The ids of a page of the catalog. */
  conversationIds(query: CatalogQuery): string[] {
    const { sql, params } = catalogQuerySql(query);
    return (this.statement(sql).all(...params) as { id: string }[]).map((row) => row.id);
  }

  // ---- events ----

  /** Inserts events after `lastSeq` (inside a queued write); returns them with their sequence numbers. */
  insertEventsSql(conversationId: string, lastSeq: number, events: EventToAppend[]): EventRow[] {
    const insert = this.statement(
      'INSERT INTO events (conversation_id, seq, id, kind, source, timestamp, search_text, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    const stored = events.map((event, i) => {
      const seq = lastSeq + i + 1;
      insert.run(
        conversationId,
        seq,
        event.id,
        event.kind,
        event.source ?? null,
        event.timestamp ?? null,
        event.searchText ?? null,
        event.json,
      );
      return { seq, id: event.id, kind: event.kind, json: event.json };
    });
    this.appendedTo.add(conversationId);
    if (!this.syncingEvents.has(conversationId)) this.syncingEvents.set(conversationId, lastSeq + 1);
    return stored;
  }

  eventJsonById(conversationId: string, id: string): string | undefined {
    const row = this.statement('SELECT seq, body FROM events WHERE conversation_id = ? AND id = ?').get(
      conversationId,
      id,
    ) as { seq: number; body: string } | undefined;
    return row && this.readable(conversationId, row.seq) ? row.body : undefined;
  }

  seqOf(conversationId: string, id: string): number | undefined {
    const row = this.statement('SELECT seq FROM events WHERE conversation_id = ? AND id = ?').get(conversationId, id) as
      | { seq: number }
      | undefined;
    return row && this.readable(conversationId, row.seq) ? row.seq : undefined;
  }

  /** False for an event the syncing batch appended (not durable yet). */
  private readable(conversationId: string, seq: number): boolean {
    const syncingFrom = this.syncingEvents.get(conversationId);
    return syncingFrom === undefined || seq < syncingFrom;
  }

  searchEvents(conversationId: string, query: EventPageQuery): EventRow[] {
    const { where, params } = this.filterSql(conversationId, query);
    if (query.fromSeq !== undefined) {
      where.push(query.descending ? 'seq <= ?' : 'seq >= ?');
      params.push(query.fromSeq);
    }
    if (query.afterSeq !== undefined) {
      where.push(query.descending ? 'seq < ?' : 'seq > ?');
      params.push(query.afterSeq);
    }
    const sql = `SELECT seq, id, kind, body AS json FROM events WHERE ${where.join(' AND ')} ORDER BY seq ${
      query.descending ? 'DESC' : 'ASC'
    } LIMIT ?`;
    return this.statement(sql).all(...params, query.limit) as unknown as EventRow[];
  }

  countEvents(conversationId: string, filter: EventFilter): number {
    const { where, params } = this.filterSql(conversationId, filter);
    const row = this.statement(`SELECT count(*) AS n FROM events WHERE ${where.join(' AND ')}`).get(...params) as {
      n: number;
    };
    return row.n;
  }

  private filterSql(conversationId: string, filter: EventFilter): { where: string[]; params: SqlValue[] } {
    const { where, params } = eventFilterSql(conversationId, filter);
    const syncingFrom = this.syncingEvents.get(conversationId);
    if (syncingFrom !== undefined) {
      where.push('seq < ?');
      params.push(syncingFrom);
    }
    return { where, params };
  }
}
