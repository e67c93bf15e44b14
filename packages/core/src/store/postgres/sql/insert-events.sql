-- insert-events: insert-event for a whole accepted batch in one statement (PostgreSQL only). Idempotent on
-- (tenant_id, event_id); RETURNING names the events this call created (the others take the existing-event path).
-- params (arrays, one element per event): :ids, :tenant_ids, :event_ids, :types, :versions, :occurred_ats, :bodies,
--         :body_hashes, :payload_formats, :is_moneys, :ordering_keys, :traceparents, :tracestates, :created_ats
INSERT INTO events (id, tenant_id, event_id, type, version, occurred_at, body, body_hash, payload_format, is_money, ordering_key,
                    traceparent, tracestate, created_at)
SELECT * FROM unnest(:ids::text[], :tenant_ids::text[], :event_ids::text[], :types::text[], :versions::text[],
                     :occurred_ats::text[], :bodies::bytea[], :body_hashes::text[], :payload_formats::text[],
                     :is_moneys::integer[], :ordering_keys::text[], :traceparents::text[], :tracestates::text[],
                     :created_ats::bigint[])
ON CONFLICT (tenant_id, event_id) DO NOTHING
RETURNING id
