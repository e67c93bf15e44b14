-- schedule-catch-up-replay: a reactivation's catch-up (docs/rules.md#catch-up). The endpoint's oldest failed and
-- skipped deliveries that last changed within [since, until] (since = when the pause began) get one replay attempt
-- now. By last change, not last attempt: a delivery in progress when the pause began ends failed endpoint_paused at
-- its next claim, after the pause, though its last attempt (if any) was before it.
-- params :replay_id, :endpoint_id, :since, :until, :include_skipped (always 1 here), :limit, :now
UPDATE deliveries SET status = 'pending', next_attempt_at = :now, replay_id = :replay_id, dismissed_at = NULL, updated_at = :now
WHERE id IN (
  SELECT id FROM deliveries
  WHERE endpoint_id = :endpoint_id
    AND (status = 'failed' OR (:include_skipped = 1 AND status = 'skipped'))
    AND updated_at BETWEEN :since AND :until
  ORDER BY updated_at, id
  LIMIT :limit
)
