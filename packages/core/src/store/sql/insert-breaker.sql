-- insert-breaker: params breaker columns
INSERT INTO breakers (scope_key, tenant_id, state, pause_ms, opened_at, next_probe_at, probe_delivery_id, updated_at)
VALUES (:scope_key, :tenant_id, :state, :pause_ms, :opened_at, :next_probe_at, :probe_delivery_id, :updated_at)
ON CONFLICT (scope_key) DO NOTHING
