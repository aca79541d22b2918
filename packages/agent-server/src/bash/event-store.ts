import { type SqlValue, type SqliteFile, closeSqliteFile, openSqliteFile } from '@bosun/database';
import type { BashEvent, BashEventPage, BashEventSearch } from '@bosun/protocol';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS bash_events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL,
  command_id TEXT NOT NULL,
  ord INTEGER,
  exit_code INTEGER,
  at_ms INTEGER NOT NULL,
  json TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS bash_events_command ON bash_events (command_id, seq);
`;

/**
 * The bash events, in their own SQLite database in the data directory (like the conversations' log, and apart
 * from it: commands are not part of any conversation). Rows are written once, in append order (`seq`), which is
 * the order of search; a restart finds them all.
 */
export class BashEventStore {
  private readonly db: SqliteFile;

  constructor(file: string) {
    this.db = openSqliteFile(file, ['journal_mode = WAL']);
    this.db.exec(SCHEMA);
  }

  append(event: BashEvent): void {
    const output = event.kind === 'BashOutput' ? event : undefined;
    this.db
      .prepare(
        'INSERT INTO bash_events (id, kind, command_id, ord, exit_code, at_ms, json) VALUES (?, ?, ?, ?, ?, ?, ?)',
      )
      .run(
        event.id,
        event.kind,
        output ? output.command_id : event.id,
        output ? output.order : null,
        output ? output.exit_code : null,
        Date.parse(event.timestamp),
        JSON.stringify(event),
      );
  }

  get(id: string): BashEvent | undefined {
    const row = this.db.prepare('SELECT json FROM bash_events WHERE id = ?').get(normalizeId(id)) as
      | { json: string }
      | undefined;
    return row ? (JSON.parse(row.json) as BashEvent) : undefined;
  }

  /** Commands with no final output (the server stopped while they ran), with the `order` their next output takes. */
  unfinishedCommands(): { commandId: string; nextOrder: number }[] {
    return this.db
      .prepare(
        `SELECT command_id AS commandId, COALESCE(MAX(ord) + 1, 0) AS nextOrder FROM bash_events
         GROUP BY command_id
         HAVING SUM(kind = 'BashCommand') = 1 AND SUM(kind = 'BashOutput' AND exit_code IS NOT NULL) = 0`,
      )
      .all() as { commandId: string; nextOrder: number }[];
  }

  /** Deletes every event; returns how many there were. */
  clear(): number {
    return Number(this.db.prepare('DELETE FROM bash_events').run().changes);
  }

  /** A page of the events that match; null when `page_id` names none of them. */
  search(query: BashEventSearch): BashEventPage | null {
    const where: string[] = [];
    const params: SqlValue[] = [];
    const add = (sql: string, value: SqlValue) => {
      where.push(sql);
      params.push(value);
    };
    if (query.kind__eq) add('kind = ?', query.kind__eq);
    if (query.command_id__eq) add('command_id = ?', normalizeId(query.command_id__eq));
    if (query.timestamp__gte) add('at_ms >= ?', utcMillis(query.timestamp__gte));
    if (query.timestamp__lt) add('at_ms < ?', utcMillis(query.timestamp__lt));
    if (query.order__gt !== undefined) add("kind = 'BashOutput' AND ord > ?", query.order__gt);
    const descending = query.sort_order === 'TIMESTAMP_DESC';
    if (query.page_id) {
      const cursor = this.db.prepare('SELECT seq FROM bash_events WHERE id = ?').get(normalizeId(query.page_id)) as
        | { seq: number }
        | undefined;
      if (!cursor) return null;
      add(descending ? 'seq <= ?' : 'seq >= ?', cursor.seq);
    }
    const sql =
      `SELECT id, json FROM bash_events ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ` +
      `ORDER BY seq ${descending ? 'DESC' : 'ASC'} LIMIT ?`;
    const rows = this.db.prepare(sql).all(...params, query.limit + 1) as { id: string; json: string }[];
    const items = rows.slice(0, query.limit).map((row) => JSON.parse(row.json) as BashEvent);
    return { items, next_page_id: rows[query.limit]?.id ?? null };
  }

  close(): void {
    closeSqliteFile(this.db);
  }
}

/** Ids are 32 hex digits; a dashed UUID names the same event. */
export function normalizeId(id: string): string {
  return id.replaceAll('-', '').toLowerCase();
}

/** A timestamp without a zone is UTC, as the events' own are. */
function utcMillis(value: string): number {
  return Date.parse(/(Z|[+-]\d{2}:?\d{2})$/i.test(value) ? value : `${value}Z`);
}
