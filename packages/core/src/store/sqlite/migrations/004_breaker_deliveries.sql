-- 004_breaker_deliveries: the breaker window counts deliveries, not attempts (docs/rules.md#breaker-open): one row per (scope, delivery)
-- holding its latest attempt's time and whether that attempt was a delivery failure. Replaces the attempt buckets.
DROP TABLE breaker_buckets;
CREATE TABLE breaker_deliveries (
  scope_key TEXT NOT NULL,
  delivery_id TEXT NOT NULL,
  attempted_at INTEGER NOT NULL,                 -- the latest attempt's start
  failed INTEGER NOT NULL,                       -- 1 when that attempt was a delivery failure (client errors: 0)
  PRIMARY KEY (scope_key, delivery_id)
) WITHOUT ROWID;
-- The windowed count reads only this index; the age index serves the purge.
CREATE INDEX breaker_deliveries_window ON breaker_deliveries (scope_key, attempted_at, failed);
CREATE INDEX breaker_deliveries_age ON breaker_deliveries (attempted_at);
