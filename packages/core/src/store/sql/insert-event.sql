-- insert-event: idempotent on (tenant_id, event_id); RETURNING tells whether this call created it.
-- params: event columns
INSERT INTO events (id, tenant_id, event_id, type, version, occurred_at, body, body_hash, payload_format, is_money, ordering_key,
                    traceparent, tracestate, created_at)
VALUES (:id, :tenant_id, :event_id, :type, :version, :occurred_at, :body, :body_hash, :payload_format, :is_money, :ordering_key,
        :traceparent, :tracestate, :created_at)
ON CONFLICT (tenant_id, event_id) DO NOTHING
RETURNING id
