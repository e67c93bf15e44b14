-- deliveries-per-minute: params :tenant_id, :since_minute. The tenant's per-minute counters since :since_minute
-- (docs/rules.md#stats-counters), summed over endpoints and slots: deliveries that ended succeeded or failed, and
-- attempts that failed and will be retried, by the minute the attempt started. A range of delivery_minutes_tenant.
SELECT minute, sum(succeeded) AS succeeded, sum(retried) AS retried, sum(failed) AS failed
FROM delivery_minutes WHERE tenant_id = :tenant_id AND minute >= :since_minute
GROUP BY minute HAVING sum(succeeded) + sum(retried) + sum(failed) > 0
ORDER BY minute
