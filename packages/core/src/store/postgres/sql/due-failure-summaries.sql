-- due-failure-summaries: endpoints with failures not yet summarised whose last summary is at least a window old;
-- locked (another worker flushing at once skips them). params: :cutoff (now − window), :limit
SELECT * FROM failure_summaries WHERE count > 0 AND (last_sent_at IS NULL OR last_sent_at <= :cutoff::bigint)
ORDER BY endpoint_id LIMIT :limit FOR UPDATE SKIP LOCKED
