-- end-deliveries: terminal without an attempt: failed (age limit while held, or endpoint paused while in progress).
-- A held period still open ends now (a replay's attempt takes it over and draws it).
-- A worker ends only what it holds: a delivery it leased in memory (:leased, lease-table.ts) or a test delivery created
-- leased to it (leased_by).
-- params: :ids (JSON array), :worker (null: any), :leased (JSON array: those of :ids the worker holds in memory),
--         :status, :reason, :now
UPDATE deliveries SET status = :status, terminal_reason = :reason, next_attempt_at = NULL, lease_until = NULL,
       leased_by = NULL, replay_id = NULL,
       held_until = CASE WHEN held_since IS NULL THEN NULL ELSE coalesce(held_until, :now) END, updated_at = :now
WHERE id IN (SELECT value FROM json_each(:ids)) AND status NOT IN ('succeeded', 'failed', 'skipped')
  AND (:worker IS NULL OR leased_by = :worker OR id IN (SELECT value FROM json_each(:leased)))
RETURNING id
