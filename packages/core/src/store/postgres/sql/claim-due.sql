-- claim-due: lease due pending/held deliveries, respecting each endpoint's concurrency cap across worker processes.
-- The lease is one UPDATE … FOR UPDATE SKIP LOCKED inside hookline_claim_due (as migrations/015_claim_due_scan.sql
-- last defines it), which first takes a per-endpoint advisory lock so caps hold across processes (see 013's comment).
-- params: :now, :lease_until, :worker, :limit, :saturated (text[] of endpoint ids to skip), :lease_factor
SELECT claimed_id AS id FROM hookline_claim_due(:now::bigint, :lease_until::bigint, :worker::text, :limit::integer, :saturated::text[], :lease_factor::integer)
