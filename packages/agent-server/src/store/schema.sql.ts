/** The embedded database: a catalog of conversations and one append-only log of events per conversation. */
export const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS conversations (
  id          TEXT PRIMARY KEY,
  status      TEXT NOT NULL,
  title       TEXT,
  created_at  TEXT NOT NULL,
  updated_at  TEXT NOT NULL,
  last_seq    INTEGER NOT NULL DEFAULT 0,
  data        TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS conversations_by_status ON conversations (status);
CREATE INDEX IF NOT EXISTS conversations_by_created ON conversations (created_at, id);
CREATE INDEX IF NOT EXISTS conversations_by_updated ON conversations (updated_at, id);

CREATE TABLE IF NOT EXISTS events (
  conversation_id TEXT NOT NULL,
  seq             INTEGER NOT NULL,
  id              TEXT NOT NULL,
  kind            TEXT NOT NULL,
  source          TEXT,
  timestamp       TEXT,
  search_text     TEXT,
  body            TEXT NOT NULL,
  PRIMARY KEY (conversation_id, seq)
) WITHOUT ROWID;
CREATE UNIQUE INDEX IF NOT EXISTS events_by_id ON events (conversation_id, id);
`;
