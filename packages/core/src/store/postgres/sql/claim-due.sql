-- claim-due: lease due pending/held deliveries, respecting each endpoint's concurrency cap across worker processes.
-- The lease is one UPDATE … FOR UPDATE SKIP LOCKED inside hookline_claim_due (../functions/claim-due.sql), which first
-- takes a per-endpoint advisory lock so caps hold across processes.
-- params: :now, :lease_until, :worker, :limit, :saturated (text[] of endpoint ids to skip), :lease_factor
SELECT claimed_id AS id FROM hookline_claim_due(:now::bigint, :lease_until::bigint, :worker::text, :limit::integer, :saturated::text[], :lease_factor::integer)
