-- add-delivery-minutes: adds a batch's counts to the per-minute counters (docs/rules.md#stats-counters), in the
-- transaction that records the attempts. One row per (endpoint, minute, slot) of the batch.
-- params: :rows (JSON array of {endpoint_id, minute, slot, tenant_id, succeeded, failed, retried, latency_ms_sum,
--         latency_count})
INSERT INTO delivery_minutes (endpoint_id, minute, slot, tenant_id, succeeded, failed, retried, latency_ms_sum,
  latency_count)
SELECT r.value ->> 'endpoint_id', r.value ->> 'minute', r.value ->> 'slot', r.value ->> 'tenant_id',
  r.value ->> 'succeeded', r.value ->> 'failed', r.value ->> 'retried', r.value ->> 'latency_ms_sum',
  r.value ->> 'latency_count'
FROM json_each(:rows) AS r WHERE true
ON CONFLICT (endpoint_id, minute, slot) DO UPDATE
SET succeeded = succeeded + excluded.succeeded, failed = failed + excluded.failed, retried = retried + excluded.retried,
    latency_ms_sum = latency_ms_sum + excluded.latency_ms_sum, latency_count = latency_count + excluded.latency_count
