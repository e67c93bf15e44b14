-- set-tenant-limits: the admin's limits for a tenant (docs/rules.md#tenant-limits); NULL takes the configured default.
-- params: :id, :events_per_s, :events_per_day, :max_endpoints, :max_payload_bytes
UPDATE tenants SET events_per_s = :events_per_s, events_per_day = :events_per_day, max_endpoints = :max_endpoints,
       max_payload_bytes = :max_payload_bytes
WHERE id = :id
