-- pause-failing-endpoint: the health sweep pauses an endpoint still degraded in the same failure streak.
-- params :id, :failing_since, :now
UPDATE endpoints SET status = 'paused', pause_reason = 'failing', version = version + 1, updated_at = :now
WHERE id = :id AND status = 'degraded' AND failing_since = :failing_since
