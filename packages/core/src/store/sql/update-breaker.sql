-- update-breaker: compare-and-set on updated_at; params breaker columns, :expected
UPDATE breakers SET state = :state, pause_ms = :pause_ms, opened_at = :opened_at, next_probe_at = :next_probe_at,
       probe_delivery_id = :probe_delivery_id, updated_at = :updated_at
WHERE scope_key = :scope_key AND updated_at = :expected
