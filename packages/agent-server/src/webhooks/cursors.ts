import { type SqliteFile, type SqliteStatement, closeSqliteFile, openSqliteFile } from '@bosun/database';

/** Where a conversation with something left to post stands: its cursor, and whether its info waits too. */
export interface PendingCursor {
  delivered: number;
  info: boolean;
}

/**
 * The cursors of the conversations that have something left to post, kept in their own small database beside
 * the log, so that what a stopped server (or a receiver down until then) left undelivered is posted after the
 * next start, from the log. A conversation's row goes once it has delivered everything.
 */
export class WebhookCursors {
  private readonly db: SqliteFile;
  private readonly upsert: SqliteStatement;
  private readonly remove: SqliteStatement;

  constructor(file: string) {
    this.db = openSqliteFile(file, [
      'journal_mode = WAL',
      // A cursor behind the truth only repeats a batch after a crash of the machine; never worth an fsync.
      'synchronous = NORMAL',
    ]);
    this.db.exec(
      'CREATE TABLE IF NOT EXISTS pending (conversation_id TEXT PRIMARY KEY, delivered_seq INTEGER NOT NULL, info INTEGER NOT NULL)',
    );
    this.upsert = this.db.prepare(
      'INSERT INTO pending (conversation_id, delivered_seq, info) VALUES (?, ?, ?) ' +
        'ON CONFLICT (conversation_id) DO UPDATE SET delivered_seq = excluded.delivered_seq, info = excluded.info',
    );
    this.remove = this.db.prepare('DELETE FROM pending WHERE conversation_id = ?');
  }

  /** Every pending cursor, by conversation id. */
  all(): Map<string, PendingCursor> {
    const rows = this.db.prepare('SELECT conversation_id, delivered_seq, info FROM pending').all() as {
      conversation_id: string;
      delivered_seq: number;
      info: number;
    }[];
    return new Map(rows.map((row) => [row.conversation_id, { delivered: row.delivered_seq, info: row.info === 1 }]));
  }

  save(conversationId: string, cursor: PendingCursor): void {
    this.upsert.run(conversationId, cursor.delivered, cursor.info ? 1 : 0);
  }

  clear(conversationId: string): void {
    this.remove.run(conversationId);
  }

  close(): void {
    closeSqliteFile(this.db);
  }
}
