-- finish-attempt: the delivery's state after an attempt, only while this worker still holds the lease it made the
-- attempt under (attempt_count unchanged since the claim). A retried commit that did land the first time, or a
-- record of a delivery deleted meanwhile, changes nothing. The ordering key tells whether the key's next one is due now.
-- The held period is cleared; PostgreSQL's own finish-attempt returns it for the attempt (SQLite finishes every batch
-- with finish-attempts, its attempts taking the period over before).
-- params: :id, :worker, :attempt_count (the count the attempt was made at), :status, :ladder, :next_attempt_at,
--         :terminal_reason, :fast_failures, :slow_failures, :slow_started_at, :first_attempt_at, :last_attempt_at, :now
UPDATE deliveries
SET {{finish-set}}
WHERE id = :id AND status = 'delivering' AND leased_by = :worker AND attempt_count = :attempt_count
RETURNING id, ordering_key
