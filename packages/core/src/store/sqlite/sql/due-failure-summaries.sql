-- due-failure-summaries: endpoints with failures not yet summarised whose last summary is at least a window old.
-- params: :cutoff (now − window), :limit
SELECT * FROM failure_summaries WHERE count > 0 AND (last_sent_at IS NULL OR last_sent_at <= :cutoff)
ORDER BY endpoint_id LIMIT :limit
