-- hookline_claim_due(p_now, p_lease_until, p_worker, p_limit, p_saturated, p_lease_factor): the claim (sql/claim-due.sql
-- calls it): leases at most p_limit due rows to p_worker until p_lease_until and returns their ids. Endpoints in
-- p_saturated are skipped; an endpoint's cap is max_concurrency × p_lease_factor rows in flight.
-- Per endpoint of the oldest due rows, in due order: a transaction-scoped advisory lock (one busy elsewhere is skipped,
-- the way SKIP LOCKED skips rows), then its room (cap × lease factor − in flight), then at most that many of its due
-- rows, oldest first, from an index in due order; only what is leased is read and locked. Each statement of a PL/pgSQL
-- function takes a fresh snapshot, so the count of in-flight rows sees every committed claim of the endpoints this
-- worker holds (under READ COMMITTED one statement would count from a snapshot older than another worker's claim).
-- The look at the oldest due rows merges one ordered index range per status (an (status, next_attempt_at) index cannot
-- return two statuses in time order), so it reads about as many rows as it asks for, not the whole backlog; bitmap
-- scans are off inside the function because on a freshly filled, unanalyzed table the planner otherwise still picks
-- bitmap-and-sort. A row with an ordering key is due only while hookline_key_free (key-free.sql) says its key is free.
CREATE OR REPLACE FUNCTION hookline_claim_due(p_now BIGINT, p_lease_until BIGINT, p_worker TEXT, p_limit INTEGER, p_saturated TEXT[], p_lease_factor INTEGER)
RETURNS TABLE (claimed_id TEXT) LANGUAGE plpgsql SET enable_bitmapscan = off AS $$
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
        SELECT u.endpoint_id, u.next_attempt_at FROM (
          (SELECT d.endpoint_id, d.next_attempt_at FROM deliveries d
           WHERE d.status = 'pending' AND d.next_attempt_at <= p_now AND NOT (d.endpoint_id = ANY(p_saturated))
             AND (d.ordering_key IS NULL OR hookline_key_free(d.endpoint_id, d.ordering_key, d.ordering_seq))
           ORDER BY d.next_attempt_at
           LIMIT p_limit * 4)
          UNION ALL
          (SELECT d.endpoint_id, d.next_attempt_at FROM deliveries d
           WHERE d.status = 'held' AND d.next_attempt_at <= p_now AND NOT (d.endpoint_id = ANY(p_saturated))
             AND (d.ordering_key IS NULL OR hookline_key_free(d.endpoint_id, d.ordering_key, d.ordering_seq))
           ORDER BY d.next_attempt_at
           LIMIT p_limit * 4)
        ) u
        ORDER BY u.next_attempt_at
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
