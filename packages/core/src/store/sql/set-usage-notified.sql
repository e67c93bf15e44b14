-- set-usage-notified: the daily-quota notice (80 or 100) just written for the tenant's day.
-- params: :tenant_id, :day, :percent
UPDATE tenant_usage SET notified_percent = :percent WHERE tenant_id = :tenant_id AND day = :day
