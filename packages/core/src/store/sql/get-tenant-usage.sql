-- get-tenant-usage: a tenant's count for one UTC day (no row: nothing accepted that day).
-- params: :tenant_id, :day
SELECT events, minute_at, minute_events, prev_minute_events, notified_percent FROM tenant_usage
WHERE tenant_id = :tenant_id AND day = :day
