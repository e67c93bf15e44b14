-- tenant-ingest-limits: the ingest limits of the tenants of an accept batch (NULL: the configured default).
-- params: :ids (text[])
SELECT id, events_per_s, events_per_day, max_payload_bytes FROM tenants WHERE id = ANY(:ids::text[])
