-- purge-events: events older than :before with no deliveries left, at most :batch, oldest first.
-- The check is a scalar subquery on purpose: an anti join (NOT EXISTS) let PostgreSQL hash every delivery for each
-- batch of 500 (its statistics still count the deliveries just purged as present), 1,300 events a second at two
-- million kept; a subquery is a probe of deliveries_event per event, read in created_at order until the batch is full.
DELETE FROM events WHERE id IN (
  SELECT ev.id FROM events ev WHERE ev.created_at < :before
    AND (SELECT count(*) FROM (SELECT 1 FROM deliveries d WHERE d.event_pk = ev.id LIMIT 1) AS live) = 0
  ORDER BY ev.created_at LIMIT :batch
)
