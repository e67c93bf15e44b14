-- schedule-window-replay: the endpoint's oldest failed (and optionally skipped) deliveries last attempted (or, never
-- attempted, created) within [since, until] get one replay attempt now. Succeeded deliveries are never selected.
-- A dismissed delivery takes its place in its key's order again (docs/rules.md#ordered-replay).
-- (A delivery can fail unattempted: queued or held when its endpoint paused, or held past the age limit.)
-- params :replay_id, :endpoint_id, :since, :until, :include_skipped, :limit, :now
UPDATE deliveries SET status = 'pending', next_attempt_at = :now, replay_id = :replay_id, dismissed_at = NULL, updated_at = :now
WHERE id IN (
  SELECT id FROM deliveries
  WHERE endpoint_id = :endpoint_id
    AND (status = 'failed' OR (:include_skipped = 1 AND status = 'skipped'))
    AND coalesce(last_attempt_at, created_at) BETWEEN :since AND :until
  ORDER BY coalesce(last_attempt_at, created_at), id
  LIMIT :limit
)
