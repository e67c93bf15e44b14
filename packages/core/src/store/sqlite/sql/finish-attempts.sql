-- finish-attempts: finish-attempt (store/sql) for a whole batch of records in one statement (SQLite). Each element of
-- :records carries the same fields as finish-attempt's parameters, and `leased` (1: the record's worker still holds
-- the delivery's lease in memory, lease-table.ts); a row changes only while that worker holds the lease it made the
-- attempt under (attempt_count unchanged since the claim), or the row's own lease (a test delivery taken over). A retried commit that did land
-- the first time, or a record of a delivery deleted meanwhile, changes nothing and returns nothing. The delivery's held
-- period is cleared: insert-attempts, which runs first, put it on the attempt.
-- params: :records (JSON array of {id, worker, attempt_count, status, ladder, next_attempt_at, terminal_reason,
--         fast_failures, slow_failures, slow_started_at, first_attempt_at, last_attempt_at, leased}), :now
UPDATE deliveries AS d
SET status = r.value ->> 'status', ladder = coalesce(r.value ->> 'ladder', d.ladder),
    next_attempt_at = r.value ->> 'next_attempt_at', terminal_reason = r.value ->> 'terminal_reason',
    fast_failures = r.value ->> 'fast_failures', slow_failures = r.value ->> 'slow_failures',
    slow_started_at = r.value ->> 'slow_started_at', first_attempt_at = r.value ->> 'first_attempt_at',
    last_attempt_at = r.value ->> 'last_attempt_at',
    attempt_count = d.attempt_count + 1, lease_until = NULL, leased_by = NULL, replay_id = NULL, held_since = NULL,
    held_until = NULL, updated_at = :now
FROM json_each(:records) AS r
WHERE d.id = r.value ->> 'id'
  AND (r.value ->> 'leased' = 1 OR (d.status = 'delivering' AND d.leased_by = r.value ->> 'worker'))
  AND d.attempt_count = r.value ->> 'attempt_count'
RETURNING id, ordering_key
