-- 013_claim_per_endpoint: the claim reads and locks only what it leases. 001/007 locked up to 4 × limit candidate
-- rows (FOR UPDATE SKIP LOCKED: a row lock written on every one) and counted every in-flight row, then leased the few
-- the caps allowed; with several workers each claim rewrote hundreds of rows it did not take, and the endpoint's
-- advisory lock was held meanwhile. Now, per endpoint whose advisory lock this claim got: its room (cap × lease
-- factor − in flight), then at most that many of its due rows, oldest first, from an index in due order.
CREATE INDEX deliveries_endpoint_due ON deliveries (endpoint_id, next_attempt_at, id) WHERE status IN ('pending', 'held');

CREATE OR REPLACE FUNCTION hookline_claim_due(p_now BIGINT, p_lease_until BIGINT, p_worker TEXT, p_limit INTEGER, p_saturated TEXT[], p_lease_factor INTEGER)
RETURNS TABLE (claimed_id TEXT) LANGUAGE plpgsql AS $$
DECLARE
  ep RECORD;
  room INTEGER;
  left_over INTEGER := p_limit;
BEGIN
  -- The endpoints of the oldest due rows, in due order; caps hold across processes because only the holder of an
  -- endpoint's advisory lock (until commit) counts and leases its rows. One busy elsewhere is skipped, not awaited.
  FOR ep IN
    SELECT c.endpoint_id, e.max_concurrency FROM (
      SELECT due.endpoint_id, min(due.next_attempt_at) AS first_due FROM (
        SELECT d.endpoint_id, d.next_attempt_at FROM deliveries d
        WHERE d.status IN ('pending', 'held') AND d.next_attempt_at <= p_now AND NOT (d.endpoint_id = ANY(p_saturated))
          AND (d.ordering_key IS NULL OR hookline_key_free(d.endpoint_id, d.ordering_key, d.ordering_seq))
        ORDER BY d.next_attempt_at
        LIMIT p_limit * 4
      ) due GROUP BY due.endpoint_id
    ) c JOIN endpoints e ON e.id = c.endpoint_id
    ORDER BY c.first_due, c.endpoint_id
  LOOP
    EXIT WHEN left_over <= 0;
    CONTINUE WHEN NOT pg_try_advisory_xact_lock(hashtext('hookline.claim'), hashtext(ep.endpoint_id));
    SELECT ep.max_concurrency * p_lease_factor - count(*) INTO room FROM deliveries f
    WHERE f.endpoint_id = ep.endpoint_id AND f.status = 'delivering';
    room := least(room, left_over);
    CONTINUE WHEN room <= 0;
    RETURN QUERY
    UPDATE deliveries u SET status = 'delivering', lease_until = p_lease_until, leased_by = p_worker, updated_at = p_now
    WHERE u.id IN (
      SELECT d.id FROM deliveries d
      WHERE d.endpoint_id = ep.endpoint_id AND d.status IN ('pending', 'held') AND d.next_attempt_at <= p_now
        AND (d.ordering_key IS NULL OR hookline_key_free(d.endpoint_id, d.ordering_key, d.ordering_seq))
      ORDER BY d.next_attempt_at, d.id
      LIMIT room
      FOR UPDATE SKIP LOCKED
    )
    RETURNING u.id;
    GET DIAGNOSTICS room = ROW_COUNT;
    left_over := left_over - room;
  END LOOP;
END
$$;
