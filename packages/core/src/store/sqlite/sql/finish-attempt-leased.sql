-- finish-attempt-leased: finish-attempt (store/sql) for one record of a dispatcher's batch (SQLite), run once per
-- record with the statement prepared once (sqlite-driver.ts eachRow). The row changes only while the record's worker
-- holds the lease it made the attempt under (attempt_count unchanged since the claim): in memory (:leased = 1,
-- lease-table.ts), or the row's own lease (a test delivery taken over). A retried commit that did land the first time,
-- or a record of a delivery deleted meanwhile, changes nothing and returns nothing. The held period is cleared:
-- insert-attempt-leased, which runs first, put it on the attempt.
-- params: finish-attempt's (:id, :worker, :attempt_count, :status, :ladder, :next_attempt_at, :terminal_reason,
--         :fast_failures, :slow_failures, :slow_started_at, :first_attempt_at, :last_attempt_at, :now), :leased
UPDATE deliveries
SET {{finish-set}}
WHERE id = :id AND (:leased = 1 OR (status = 'delivering' AND leased_by = :worker)) AND attempt_count = :attempt_count
RETURNING id, ordering_key
