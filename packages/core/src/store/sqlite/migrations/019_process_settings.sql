-- 019_process_settings: each running process publishes the settings every process on the database must agree on
-- (docs/scaling.md#settings-that-must-match), so an api and a worker with different ones are refused at start instead
-- of the worker failing what the API accepted. One row per process: `settings` is a JSON object of the values that
-- are safe to show (the master key only as a key-check value), `epoch` the operator's settings epoch for a rolling
-- change, `seen_at` its heartbeat; a row not seen for a minute is a process that is gone.
CREATE TABLE process_settings (
  process_id TEXT PRIMARY KEY,
  role TEXT NOT NULL,
  epoch INTEGER NOT NULL,
  settings TEXT NOT NULL,
  started_at INTEGER NOT NULL,
  seen_at INTEGER NOT NULL
);
CREATE INDEX process_settings_seen ON process_settings (seen_at);
