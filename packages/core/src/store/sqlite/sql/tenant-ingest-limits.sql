-- tenant-ingest-limits: the ingest limits of the tenants of an accept batch (NULL: the configured default).
-- params: :ids (JSON array of tenant ids)
SELECT id, events_per_s, events_per_day, max_payload_bytes FROM tenants WHERE id IN (SELECT value FROM json_each(:ids))
