-- 013_claim_per_endpoint: PostgreSQL's claim reads and locks only what it leases (its 013). Nothing changes on SQLite:
-- one worker per file, whose claim (sqlite/sql/claim-due.sql) already skips saturated endpoints without locking rows.
SELECT 1;
