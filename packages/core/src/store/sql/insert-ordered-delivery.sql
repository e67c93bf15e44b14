-- insert-ordered-delivery: a delivery of a keyed event to an endpoint with ordering 'key', numbered next in its key's
-- sequence on the endpoint (docs/rules.md#ordering-sequence). The caller holds the key's lock (lock-ordering-key).
-- Behind an unfinished delivery of its key it waits with no due time, out of the claim's way, until that one ends
-- (promote-next-of-key): a long queue on one key costs the claim nothing.
-- params: :id, :tenant_id, :event_pk, :endpoint_id, :status, :is_money, :next_attempt_at, :ordering_key, :now
INSERT INTO deliveries (id, tenant_id, event_pk, endpoint_id, status, is_money, next_attempt_at, ordering_key, ordering_seq,
                        created_at, updated_at)
VALUES (:id, :tenant_id, :event_pk, :endpoint_id, :status, :is_money,
        CASE WHEN EXISTS (SELECT 1 FROM deliveries WHERE endpoint_id = :endpoint_id AND ordering_key = :ordering_key
                                                   AND status IN ('pending', 'delivering', 'held'))
             THEN NULL ELSE :next_attempt_at END,
        :ordering_key,
        (SELECT coalesce(max(ordering_seq), 0) + 1 FROM deliveries WHERE endpoint_id = :endpoint_id AND ordering_key = :ordering_key),
        :now, :now)
RETURNING ordering_seq, next_attempt_at
