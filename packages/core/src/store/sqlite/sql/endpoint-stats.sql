-- endpoint-stats: params :tenant_id, :since_minute, :now. Per endpoint of the tenant: deliveries not yet terminal by
-- status, the oldest due one (ranges of the deliveries_endpoint index over the queue, never over history), and from
-- the per-minute counters since :since_minute (docs/rules.md#stats-counters): deliveries that ended succeeded or
-- failed, and the attempts' total duration and count. SQLite: a delivery leased in memory is not the oldest due (it is in
-- flight: docs/rules.md#sqlite-leases); its count moves to delivering in sqlite-lease-reads.ts. The counters' cost grows with minutes, not with deliveries kept.
SELECT e.id AS endpoint_id, e.status AS endpoint_status,
  (SELECT count(*) FROM deliveries d WHERE d.endpoint_id = e.id AND d.status = 'pending') AS pending,
  (SELECT count(*) FROM deliveries d WHERE d.endpoint_id = e.id AND d.status = 'delivering') AS delivering,
  (SELECT count(*) FROM deliveries d WHERE d.endpoint_id = e.id AND d.status = 'held') AS held,
  (SELECT min(d.next_attempt_at) FROM deliveries d WHERE d.endpoint_id = e.id AND d.status = 'pending' AND d.next_attempt_at <= :now
     AND NOT hookline_leased(d.id)) AS oldest_due_at,
  coalesce(m.succeeded, 0) AS succeeded, coalesce(m.failed, 0) AS failed,
  coalesce(m.latency_ms_sum, 0) AS latency_ms_sum, coalesce(m.latency_count, 0) AS latency_count
FROM endpoints e
LEFT JOIN (
  SELECT endpoint_id, sum(succeeded) AS succeeded, sum(failed) AS failed, sum(latency_ms_sum) AS latency_ms_sum,
    sum(latency_count) AS latency_count
  FROM delivery_minutes WHERE tenant_id = :tenant_id AND minute >= :since_minute GROUP BY endpoint_id
) m ON m.endpoint_id = e.id
WHERE e.tenant_id = :tenant_id ORDER BY e.id
