-- insert-ordered-delivery: a delivery of a keyed event to an endpoint with ordering 'key', numbered next in its key's
-- sequence on the endpoint (docs/rules.md#ordering-sequence). The caller holds the key's lock (lock-ordering-key).
-- params: :id, :tenant_id, :event_pk, :endpoint_id, :status, :is_money, :next_attempt_at, :ordering_key, :now
INSERT INTO deliveries (id, tenant_id, event_pk, endpoint_id, status, is_money, next_attempt_at, ordering_key, ordering_seq,
                        created_at, updated_at)
VALUES (:id, :tenant_id, :event_pk, :endpoint_id, :status, :is_money, :next_attempt_at, :ordering_key,
        (SELECT coalesce(max(ordering_seq), 0) + 1 FROM deliveries WHERE endpoint_id = :endpoint_id AND ordering_key = :ordering_key),
        :now, :now)
RETURNING ordering_seq
