-- add-tenant-usage: counts an accept's new events into the tenant's day and minute (docs/rules.md#tenant-limits);
-- the minute before the current one is kept for the reported rate (a process whose clock is behind counts into the
-- newer minute).
-- params: :tenant_id, :day, :minute (the minute's start, ms), :n
INSERT INTO tenant_usage (tenant_id, day, events, minute_at, minute_events, prev_minute_events, notified_percent)
VALUES (:tenant_id, :day, :n, :minute, :n, 0, 0)
ON CONFLICT (tenant_id, day) DO UPDATE SET
  events = tenant_usage.events + excluded.events,
  prev_minute_events = CASE
    WHEN tenant_usage.minute_at >= excluded.minute_at THEN tenant_usage.prev_minute_events
    WHEN tenant_usage.minute_at = excluded.minute_at - 60000 THEN tenant_usage.minute_events
    ELSE 0 END,
  minute_events = CASE
    WHEN tenant_usage.minute_at >= excluded.minute_at THEN tenant_usage.minute_events + excluded.minute_events
    ELSE excluded.minute_events END,
  minute_at = CASE WHEN tenant_usage.minute_at > excluded.minute_at THEN tenant_usage.minute_at ELSE excluded.minute_at END
RETURNING events, notified_percent
