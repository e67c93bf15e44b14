-- 015_claim_due_scan: PostgreSQL's claim reads its oldest due rows from one ordered index range per status (its 015).
-- Nothing changes on SQLite, whose claim (sqlite/sql/claim-due.sql) is a statement of its own.
SELECT 1;
