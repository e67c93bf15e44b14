-- defer-rate-limited: hand back, un-attempted, the part of a claim its endpoint's rate limit does not allow now; due
-- again when the next token is (docs/rules.md#rate-limit). No attempt is counted.
-- params: :ids (text[]), :worker, :until, :now
UPDATE deliveries SET status = 'pending', next_attempt_at = :until, lease_until = NULL, leased_by = NULL, updated_at = :now
WHERE id = ANY(:ids::text[]) AND status = 'delivering' AND leased_by = :worker
