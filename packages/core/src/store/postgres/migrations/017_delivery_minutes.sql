-- 017_delivery_minutes: per-endpoint, per-minute counts written by the transaction that records attempts, so the
-- stats and the console's overview read a few rows per endpoint and minute instead of scanning deliveries, whose
-- number grows with what is kept (docs/rules.md#stats-counters). `minute` is the epoch minute of the attempt's start;
-- `slot` spreads one minute's row over writers: each worker adds to its own slot, so workers recording attempts of
-- the same endpoint never wait for each other's row lock. succeeded / failed: deliveries that ended so; retried:
-- failed attempts whose delivery will be tried again; latency_ms_sum / latency_count: every attempt's duration.
CREATE TABLE delivery_minutes (
  endpoint_id TEXT NOT NULL REFERENCES endpoints(id) ON DELETE CASCADE,
  minute BIGINT NOT NULL,
  slot INTEGER NOT NULL,
  tenant_id TEXT NOT NULL,
  succeeded INTEGER NOT NULL DEFAULT 0,
  failed INTEGER NOT NULL DEFAULT 0,
  retried INTEGER NOT NULL DEFAULT 0,
  latency_ms_sum BIGINT NOT NULL DEFAULT 0,
  latency_count INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (endpoint_id, minute, slot)
);
CREATE INDEX delivery_minutes_tenant ON delivery_minutes (tenant_id, minute);
CREATE INDEX delivery_minutes_age ON delivery_minutes (minute);
-- What is already on record, counted once: deliveries by the minute of their last attempt (as the stats read them
-- until now) and attempts' durations by the minute they started.
INSERT INTO delivery_minutes (endpoint_id, minute, slot, tenant_id, succeeded, failed, retried)
SELECT endpoint_id, last_attempt_at / 60000, 0, tenant_id,
  count(*) FILTER (WHERE status = 'succeeded'), count(*) FILTER (WHERE status = 'failed'),
  count(*) FILTER (WHERE status = 'pending')
FROM deliveries WHERE last_attempt_at IS NOT NULL AND status IN ('succeeded', 'failed', 'pending')
GROUP BY endpoint_id, last_attempt_at / 60000, tenant_id;
INSERT INTO delivery_minutes (endpoint_id, minute, slot, tenant_id, latency_ms_sum, latency_count)
SELECT a.endpoint_id, a.started_at / 60000, 0, a.tenant_id, sum(a.duration_ms), count(*)
FROM attempts a JOIN endpoints e ON e.id = a.endpoint_id
GROUP BY a.endpoint_id, a.started_at / 60000, a.tenant_id
ON CONFLICT (endpoint_id, minute, slot) DO UPDATE
SET latency_ms_sum = delivery_minutes.latency_ms_sum + excluded.latency_ms_sum,
    latency_count = delivery_minutes.latency_count + excluded.latency_count;
