-- put-process: publishes a process's settings row, or replaces it (a process whose row expired while it was paused).
-- params: :process_id, :role, :epoch, :settings (JSON object), :started_at, :seen_at
INSERT INTO process_settings (process_id, role, epoch, settings, started_at, seen_at)
VALUES (:process_id, :role, :epoch, :settings, :started_at, :seen_at)
ON CONFLICT (process_id) DO UPDATE SET role = excluded.role, epoch = excluded.epoch, settings = excluded.settings,
  started_at = excluded.started_at, seen_at = excluded.seen_at
