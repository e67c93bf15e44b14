-- 007_ordered_delivery: ordered delivery per key (docs/rules.md#ordered-delivery). An event may carry an ordering
-- key; an endpoint with ordering 'key' gives each of its deliveries that key and the next number of the key's
-- sequence on that endpoint (the accept order). The claim skips a delivery while an earlier one of its key is unfinished
-- (or, for on_failure 'block', failed and not dismissed); dismissed_at marks a failed delivery dismissed.
ALTER TABLE events ADD COLUMN ordering_key TEXT;
ALTER TABLE endpoints ADD COLUMN ordering TEXT NOT NULL DEFAULT 'none' CHECK (ordering IN ('none', 'key'));
ALTER TABLE endpoints ADD COLUMN ordering_on_failure TEXT NOT NULL DEFAULT 'continue' CHECK (ordering_on_failure IN ('continue', 'block'));
ALTER TABLE deliveries ADD COLUMN ordering_key TEXT;
ALTER TABLE deliveries ADD COLUMN ordering_seq BIGINT;
ALTER TABLE deliveries ADD COLUMN dismissed_at BIGINT;
-- Every keyed delivery, for the next sequence number at insert (unique: one place per number).
CREATE UNIQUE INDEX deliveries_key_seq ON deliveries (endpoint_id, ordering_key, ordering_seq) WHERE ordering_key IS NOT NULL;
-- The claim's checks read only the unfinished and the undismissed failed rows of a key, never its history.
CREATE INDEX deliveries_key_open ON deliveries (endpoint_id, ordering_key, ordering_seq)
  WHERE ordering_key IS NOT NULL AND status IN ('pending', 'delivering', 'held');
CREATE INDEX deliveries_key_failed ON deliveries (endpoint_id, ordering_key, ordering_seq)
  WHERE ordering_key IS NOT NULL AND status = 'failed' AND dismissed_at IS NULL;

-- May a delivery of this key be claimed now? Not while another delivery of the key on the endpoint is leased (at most
-- one in flight per key, whatever its place: a replayed earlier one waits for a later one already on the wire), or an
-- earlier one is pending or held, or (on_failure 'block') an earlier one failed and was not dismissed. Each claim
-- statement takes a fresh snapshot and claims of one endpoint are serialised by its advisory lock, so a later
-- delivery is never claimed beside its unfinished head, by this worker or another. On a paused endpoint every key is
-- free: its queue is taken at once to fail as endpoint_paused (docs/rules.md#paused-endpoint), never attempted.
CREATE FUNCTION hookline_key_free(p_endpoint TEXT, p_key TEXT, p_seq BIGINT) RETURNS BOOLEAN LANGUAGE sql STABLE AS $$
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

-- The claim of 001 with the key check on both of its reads of due rows (rows without a key skip it at once).
CREATE OR REPLACE FUNCTION hookline_claim_due(p_now BIGINT, p_lease_until BIGINT, p_worker TEXT, p_limit INTEGER, p_saturated TEXT[], p_lease_factor INTEGER)
RETURNS TABLE (claimed_id TEXT) LANGUAGE plpgsql AS $$
DECLARE
  locked TEXT[];
BEGIN
  SELECT coalesce(array_agg(c.endpoint_id), '{}') INTO locked
  FROM (
    SELECT DISTINCT due.endpoint_id FROM (
      SELECT d.endpoint_id FROM deliveries d
      WHERE d.status IN ('pending', 'held') AND d.next_attempt_at <= p_now AND NOT (d.endpoint_id = ANY(p_saturated))
        AND (d.ordering_key IS NULL OR hookline_key_free(d.endpoint_id, d.ordering_key, d.ordering_seq))
      ORDER BY d.next_attempt_at
      LIMIT p_limit * 4
    ) due
  ) c
  WHERE pg_try_advisory_xact_lock(hashtext('hookline.claim'), hashtext(c.endpoint_id));

  IF cardinality(locked) = 0 THEN
    RETURN;
  END IF;

  RETURN QUERY
  WITH candidates AS (
    SELECT d.id, d.endpoint_id, d.next_attempt_at FROM deliveries d
    WHERE d.status IN ('pending', 'held') AND d.next_attempt_at <= p_now AND d.endpoint_id = ANY(locked)
      AND (d.ordering_key IS NULL OR hookline_key_free(d.endpoint_id, d.ordering_key, d.ordering_seq))
    ORDER BY d.next_attempt_at, d.id
    LIMIT p_limit * 4
    FOR UPDATE SKIP LOCKED
  ), in_flight AS (
    SELECT f.endpoint_id, count(*) AS n FROM deliveries f
    WHERE f.status = 'delivering' AND f.endpoint_id = ANY(locked) GROUP BY f.endpoint_id
  ), ranked AS (
    SELECT c.id, c.endpoint_id, c.next_attempt_at,
           row_number() OVER (PARTITION BY c.endpoint_id ORDER BY c.next_attempt_at, c.id) AS rn
    FROM candidates c
  ), picked AS (
    SELECT r.id FROM ranked r
    JOIN endpoints e ON e.id = r.endpoint_id
    LEFT JOIN in_flight i ON i.endpoint_id = r.endpoint_id
    WHERE r.rn + coalesce(i.n, 0) <= e.max_concurrency * p_lease_factor
    ORDER BY r.next_attempt_at, r.id
    LIMIT p_limit
  )
  UPDATE deliveries u SET status = 'delivering', lease_until = p_lease_until, leased_by = p_worker, updated_at = p_now
  FROM picked WHERE u.id = picked.id
  RETURNING u.id;
END
$$;
