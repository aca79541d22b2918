import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SCHEMA_SQL } from './schema.sql.ts';
import { openSealedRecords } from './sealed-records.ts';
import type { SecretsKeyring } from './sealed-secrets.ts';
import type { SecretsKeyOptions } from './secrets-key.ts';

/** An event as the log holds it: its place in the conversation and its JSON exactly as served. */
export interface StoredEvent {
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

export interface EventFilter {
  kind?: string;
  source?: string;
  /** Lowercased substring of `searchText`. */
  body?: string;
  timestampGte?: string;
  timestampLt?: string;
}

export interface EventPageQuery extends EventFilter {
  /** First seq to return (inclusive), in the direction of the sort. */
  fromSeq?: number;
  /** Only events after this seq (exclusive; ascending order only). */
  afterSeq?: number;
  descending: boolean;
  limit: number;
}

/** A write to commit: `run` executes SQL synchronously; `committed` runs right after the commit, in order. */
export interface Write<T> {
  run: () => T;
  committed?: (result: T) => void;
  /** Called when `run` succeeded but its transaction was rolled back. */
  rolledBack?: () => void;
}

interface PendingWrite {
  write: Write<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/**
 * The durable store: SQLite in WAL mode with `synchronous=FULL`, so a committed write survives a crash of the
 * process or the machine. Writes are queued and committed together (group commit): everything queued within
 * one turn of the event loop goes into one transaction, in order, which keeps durable appends fast under load.
 */
export class Store {
  readonly db: Database.Database;
  private pending: PendingWrite[] = [];
  private flushScheduled = false;
  private readonly statements = new Map<string, Database.Statement>();
  /** Seals conversation records (`data`), which hold the secrets, at rest. */
  private readonly keyring: SecretsKeyring;

  constructor(dataDir: string, secrets: SecretsKeyOptions = {}) {
    mkdirSync(dataDir, { recursive: true });
    this.db = new Database(join(dataDir, 'bosun.db'));
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(SCHEMA_SQL);
    try {
      this.keyring = openSealedRecords(this.db, dataDir, secrets);
    } catch (error) {
      this.db.close();
      throw error;
    }
  }

  close(): void {
    this.flush();
    this.db.close();
  }

  /** Queues `write` to run in the next group commit; resolves with its result once it is durable. */
  enqueue<T>(write: Write<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ write: write as Write<unknown>, resolve: resolve as (value: unknown) => void, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /** Commits every queued write in one transaction. A write that throws fails alone (its savepoint is undone). */
  flush(): void {
    this.flushScheduled = false;
    const batch = this.pending;
    if (batch.length === 0) return;
    this.pending = [];
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: Error })[] = [];
    try {
      this.db.transaction(() => {
        for (const { write } of batch) {
          try {
            outcomes.push({ ok: true, value: this.db.transaction(write.run)() });
          } catch (error) {
            outcomes.push({ ok: false, error: error as Error });
          }
        }
      })();
    } catch (error) {
      batch.forEach(({ write, reject }, i) => {
        if (outcomes[i]?.ok) write.rolledBack?.();
        reject(error as Error);
      });
      return;
    }
    batch.forEach(({ write, resolve, reject }, i) => {
      const outcome = outcomes[i] as (typeof outcomes)[number];
      if (outcome.ok) {
        write.committed?.(outcome.value);
        resolve(outcome.value);
      } else reject(outcome.error);
    });
  }

  statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  // ---- catalog ----

  /** The catalog row of a conversation, its `data` (the record) in clear. */
  getConversation(id: string): CatalogRow | undefined {
    const row = this.statement('SELECT * FROM conversations WHERE id = ?').get(id) as CatalogRow | undefined;
    return row && { ...row, data: this.keyring.openRecord(row.id, row.data) };
  }

  /** Inserts a catalog row; its `data` is sealed. */
  insertConversationSql(row: CatalogRow): void {
    this.statement(
      'INSERT INTO conversations (id, status, title, created_at, updated_at, last_seq, data) VALUES (@id, @status, @title, @created_at, @updated_at, @last_seq, @data)',
    ).run({ ...row, data: this.keyring.sealRecord(row.id, row.data) });
  }

  /** Updates a catalog row; its `data` is sealed. */
  updateConversationSql(row: Omit<CatalogRow, 'created_at' | 'last_seq'>): void {
    this.statement(
      'UPDATE conversations SET status = @status, title = @title, updated_at = @updated_at, data = @data WHERE id = @id',
    ).run({ ...row, data: this.keyring.sealRecord(row.id, row.data) });
  }

  deleteConversationSql(id: string): void {
    this.statement('DELETE FROM events WHERE conversation_id = ?').run(id);
    this.statement('DELETE FROM conversations WHERE id = ?').run(id);
  }

  conversationIdsWithStatus(status: string): string[] {
    return (this.statement('SELECT id FROM conversations WHERE status = ?').all(status) as { id: string }[]).map(
      (row) => row.id,
    );
  }

  // ---- events ----

  /** Inserts events after `lastSeq` (inside a queued write); returns them with their sequence numbers. */
  insertEventsSql(conversationId: string, lastSeq: number, events: EventToAppend[]): StoredEvent[] {
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
    this.statement('UPDATE conversations SET last_seq = ? WHERE id = ?').run(lastSeq + events.length, conversationId);
    return stored;
  }

  eventJsonById(conversationId: string, id: string): string | undefined {
    const row = this.statement('SELECT body FROM events WHERE conversation_id = ? AND id = ?').get(
      conversationId,
      id,
    ) as { body: string } | undefined;
    return row?.body;
  }

  seqOf(conversationId: string, id: string): number | undefined {
    const row = this.statement('SELECT seq FROM events WHERE conversation_id = ? AND id = ?').get(conversationId, id) as
      | { seq: number }
      | undefined;
    return row?.seq;
  }

  searchEvents(conversationId: string, query: EventPageQuery): StoredEvent[] {
    const { where, params } = filterSql(conversationId, query);
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
    return this.statement(sql).all(...params, query.limit) as StoredEvent[];
  }

  countEvents(conversationId: string, filter: EventFilter): number {
    const { where, params } = filterSql(conversationId, filter);
    const row = this.statement(`SELECT count(*) AS n FROM events WHERE ${where.join(' AND ')}`).get(...params) as {
      n: number;
    };
    return row.n;
  }
}

function filterSql(conversationId: string, filter: EventFilter): { where: string[]; params: unknown[] } {
  const where = ['conversation_id = ?'];
  const params: unknown[] = [conversationId];
  if (filter.kind !== undefined) {
    where.push('kind = ?');
    params.push(filter.kind);
  }
  if (filter.source !== undefined) {
    where.push('source = ?');
    params.push(filter.source);
  }
  if (filter.body !== undefined) {
    where.push('instr(search_text, ?) > 0');
    params.push(filter.body);
  }
  if (filter.timestampGte !== undefined) {
    where.push('timestamp >= ?');
    params.push(filter.timestampGte);
  }
  if (filter.timestampLt !== undefined) {
    where.push('timestamp < ?');
    params.push(filter.timestampLt);
  }
  return { where, params };
}
