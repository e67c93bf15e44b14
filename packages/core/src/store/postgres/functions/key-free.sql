-- hookline_key_free(p_endpoint, p_key, p_seq): may the delivery number p_seq of ordering key p_key on endpoint
-- p_endpoint be claimed now (docs/rules.md#ordered-delivery)? Not while another delivery of the key on the endpoint is
-- leased (at most one in flight per key, whatever its place: a replayed earlier one waits for a later one already on
-- the wire), or an earlier one is pending or held, or (on_failure 'block') an earlier one failed and was not dismissed.
-- Each claim statement takes a fresh snapshot and claims of one endpoint are serialised by its advisory lock, so a
-- later delivery is never claimed beside its unfinished head, by this worker or another. On a paused endpoint every
-- key is free: its queue is taken at once to fail as endpoint_paused (docs/rules.md#paused-endpoint), never attempted.
CREATE OR REPLACE FUNCTION hookline_key_free(p_endpoint TEXT, p_key TEXT, p_seq BIGINT) RETURNS BOOLEAN LANGUAGE sql STABLE AS $$
  SELECT (NOT EXISTS (
    SELECT 1 FROM deliveries p
    WHERE p.endpoint_id = p_endpoint AND p.ordering_key = p_key AND p.status IN ('pending', 'delivering', 'held')
      AND (p.ordering_seq < p_seq OR p.status = 'delivering')
  ) AND NOT EXISTS (
    SELECT 1 FROM deliveries p JOIN endpoints e ON e.id = p.endpoint_id
    WHERE p.endpoint_id = p_endpoint AND p.ordering_key = p_key AND p.status = 'failed' AND p.dismissed_at IS NULL
      AND p.ordering_seq < p_seq AND e.ordering_on_failure = 'block'
  )) OR (SELECT e.status FROM endpoints e WHERE e.id = p_endpoint) = 'paused'
$$;
