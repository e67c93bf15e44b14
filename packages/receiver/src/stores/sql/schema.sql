-- schema: the dedup table and its prune index (two statements; no parameters).
-- One event id per row; the primary key is the unique index that makes claims race-free.
-- Times are milliseconds since the epoch. Valid for both SQLite and PostgreSQL.
CREATE TABLE IF NOT EXISTS hookline_receiver_events (
  event_id      TEXT    NOT NULL PRIMARY KEY,
  state         TEXT    NOT NULL CHECK (state IN ('received', 'processing', 'done', 'failed')),
  attempt       INTEGER NOT NULL,
  answer_status INTEGER,
  answer_body   TEXT,
  error         TEXT,
  created_at    BIGINT  NOT NULL,
  updated_at    BIGINT  NOT NULL
);
CREATE INDEX IF NOT EXISTS hookline_receiver_events_updated_at ON hookline_receiver_events (updated_at);
