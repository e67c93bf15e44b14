-- key-free: may delivery `d` be claimed now as far as its ordering key goes (docs/rules.md#ordered-claim)? Not while
-- another delivery of the key is leased (in memory: hookline_key_leased, or a row's own lease), an earlier one is pending or held, or (on_failure 'block') an earlier one
-- failed undismissed. On a paused endpoint every key is free: its queue is taken at once to fail as endpoint_paused.
-- Spelled like the partial indexes deliveries_key_open/_failed; rows without a key pass at once. PostgreSQL says the
-- same once as the function hookline_key_free (postgres/migrations/007_ordered_delivery.sql).
(ordering_key IS NULL OR (
          NOT EXISTS (SELECT 1 FROM deliveries p
            WHERE p.endpoint_id = d.endpoint_id AND p.ordering_key = d.ordering_key AND p.ordering_key IS NOT NULL
              AND p.status IN ('pending', 'delivering', 'held') AND (p.ordering_seq < d.ordering_seq OR p.status = 'delivering'))
          AND NOT EXISTS (SELECT 1 FROM deliveries p
            WHERE p.endpoint_id = d.endpoint_id AND p.ordering_key = d.ordering_key AND p.ordering_key IS NOT NULL
              AND p.status = 'failed' AND p.dismissed_at IS NULL AND p.ordering_seq < d.ordering_seq
              AND (SELECT ordering_on_failure FROM endpoints WHERE id = d.endpoint_id) = 'block')
          AND NOT hookline_key_leased(d.endpoint_id, d.ordering_key))
        OR (SELECT status FROM endpoints WHERE id = d.endpoint_id) = 'paused')
