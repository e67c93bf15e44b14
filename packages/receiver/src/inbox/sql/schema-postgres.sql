-- schema (postgres): the inbox table and its queue index (two statements; no parameters).
-- One row per event id (the primary key makes accepts race-free); times are milliseconds since the epoch.
-- available_at: due time while pending, lease expiry while running, finish time once done or dead.
CREATE TABLE IF NOT EXISTS hookline_receiver_inbox (
  event_id     TEXT    NOT NULL PRIMARY KEY,
  event_type   TEXT    NOT NULL,
  delivery_id  TEXT,
  scheme       TEXT    NOT NULL,
  headers      TEXT    NOT NULL,
  body         BYTEA  NOT NULL,
  state        TEXT    NOT NULL CHECK (state IN ('pending', 'running', 'done', 'dead')),
  attempt      INTEGER NOT NULL,
  failures     INTEGER NOT NULL,
  available_at BIGINT  NOT NULL,
  received_at  BIGINT  NOT NULL,
  updated_at   BIGINT  NOT NULL,
  error        TEXT
);
CREATE INDEX IF NOT EXISTS hookline_receiver_inbox_queue ON hookline_receiver_inbox (state, available_at);
