-- add-delivery-minutes: adds a batch's counts to the per-minute counters (docs/rules.md#stats-counters), in the
-- transaction that records the attempts. One row per (endpoint, minute, slot) of the batch, in key order (one lock
-- order for every writer); each worker writes its own slot, so workers do not queue on each other's rows.
-- params: :rows (JSON array of {endpoint_id, minute, slot, tenant_id, succeeded, failed, retried, latency_ms_sum,
--         latency_count})
INSERT INTO delivery_minutes AS m (endpoint_id, minute, slot, tenant_id, succeeded, failed, retried, latency_ms_sum,
  latency_count)
SELECT r.endpoint_id, r.minute, r.slot, r.tenant_id, r.succeeded, r.failed, r.retried, r.latency_ms_sum, r.latency_count
FROM json_to_recordset(:rows::json) AS r(endpoint_id text, minute bigint, slot integer, tenant_id text,
  succeeded integer, failed integer, retried integer, latency_ms_sum bigint, latency_count integer)
ORDER BY r.endpoint_id, r.minute, r.slot
ON CONFLICT (endpoint_id, minute, slot) DO UPDATE
SET succeeded = m.succeeded + excluded.succeeded, failed = m.failed + excluded.failed,
    retried = m.retried + excluded.retried, latency_ms_sum = m.latency_ms_sum + excluded.latency_ms_sum,
    latency_count = m.latency_count + excluded.latency_count
