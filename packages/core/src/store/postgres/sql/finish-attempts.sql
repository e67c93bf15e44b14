-- finish-attempts: finish-attempt for a whole batch of attempt records in one statement (PostgreSQL only: one round
-- trip instead of one per record). Each delivery changes only while this worker still holds the lease it made the
-- attempt under (attempt_count unchanged since the claim); a retried commit that did land, or a record of a delivery
-- deleted meanwhile, changes nothing. Rows are locked in id order (one order for every worker). The held period is
-- cleared and returned as it was (`locked` holds the row as locked, before the change), for insert-attempts.
-- params (arrays, one element per record): :ids, :workers, :attempt_counts, :statuses, :ladders, :next_attempt_ats,
--         :terminal_reasons, :fast_failures, :slow_failures, :slow_started_ats, :first_attempt_ats, :last_attempt_ats; :now
WITH r AS (
  SELECT * FROM unnest(:ids::text[], :workers::text[], :attempt_counts::integer[], :statuses::text[], :ladders::text[],
                       :next_attempt_ats::bigint[], :terminal_reasons::text[], :fast_failures::integer[],
                       :slow_failures::integer[], :slow_started_ats::bigint[], :first_attempt_ats::bigint[],
                       :last_attempt_ats::bigint[])
    AS r(id, worker, attempt_count, status, ladder, next_attempt_at, terminal_reason, fast_failures, slow_failures,
         slow_started_at, first_attempt_at, last_attempt_at)
), locked AS (
  SELECT d.id, d.held_since, d.held_until FROM deliveries d WHERE d.id = ANY(:ids::text[])
  ORDER BY d.id FOR NO KEY UPDATE
)
UPDATE deliveries d
SET status = r.status, ladder = coalesce(r.ladder, d.ladder), next_attempt_at = r.next_attempt_at,
    terminal_reason = r.terminal_reason, fast_failures = r.fast_failures, slow_failures = r.slow_failures,
    slow_started_at = r.slow_started_at, first_attempt_at = r.first_attempt_at, last_attempt_at = r.last_attempt_at,
    attempt_count = d.attempt_count + 1, lease_until = NULL, leased_by = NULL, replay_id = NULL, held_since = NULL,
    held_until = NULL, updated_at = :now
FROM r JOIN locked l ON l.id = r.id
WHERE d.id = r.id AND d.status = 'delivering' AND d.leased_by = r.worker AND d.attempt_count = r.attempt_count
RETURNING d.id, d.ordering_key, l.held_since, l.held_until
