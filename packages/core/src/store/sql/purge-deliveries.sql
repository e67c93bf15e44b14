-- purge-deliveries: terminal deliveries last touched before :before, at most :batch (attempts cascade).
DELETE FROM deliveries WHERE id IN (
  SELECT id FROM deliveries WHERE status IN ('succeeded', 'failed', 'skipped') AND updated_at < :before LIMIT :batch
)
