-- purge-delivery-minutes: per-minute counters of minutes before :before_minute, at most :batch (docs/rules.md#retention).
DELETE FROM delivery_minutes WHERE (endpoint_id, minute, slot) IN (
  SELECT endpoint_id, minute, slot FROM delivery_minutes WHERE minute < :before_minute LIMIT :batch
)
