-- lock-ordering-key: until commit, the only transaction numbering this key's deliveries on this endpoint, so the
-- sequence follows commit order across API processes (docs/rules.md#ordering-sequence). Taken in one sorted order.
-- params: :endpoint_id, :ordering_key
SELECT pg_advisory_xact_lock(hashtext('hookline.order.' || :endpoint_id::text), hashtext(:ordering_key::text)) IS NOT NULL AS locked
