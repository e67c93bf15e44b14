-- purge-events: events older than :before with no deliveries left, at most :batch.
DELETE FROM events WHERE id IN (
  SELECT ev.id FROM events ev WHERE ev.created_at < :before
    AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.event_pk = ev.id) LIMIT :batch
)
