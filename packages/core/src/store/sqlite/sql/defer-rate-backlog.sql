-- defer-rate-backlog: once a rate-limited endpoint's bucket is empty, its other due rows (not leased) move to the
-- next slots at the rate, in due order, after those already given out: a backlog is deferred once, not claimed and
-- handed back at every token (docs/rules.md#rate-limit). No attempt is counted; a held row stays held.
-- On SQLite a claimed row is leased in memory, not written (docs/rules.md#sqlite-leases): it is passed over here.
-- params: :endpoint_id, :now, :start (first free slot, ms), :rate (per second)
UPDATE deliveries
SET next_attempt_at = CAST(:start AS BIGINT) + ((r.rn - 1) * 1000 + CAST(:rate AS BIGINT) - 1) / CAST(:rate AS BIGINT), updated_at = :now
FROM (
  SELECT id, row_number() OVER (ORDER BY next_attempt_at, id) AS rn FROM deliveries
  WHERE endpoint_id = :endpoint_id AND status IN ('pending', 'held') AND next_attempt_at <= :now
    AND NOT hookline_leased(id)
) AS r
WHERE deliveries.id = r.id
