-- defer-rate-limited: hand back, un-attempted, the part of a claim its endpoint's rate limit does not allow now; each
-- row is due again at its own slot (docs/rules.md#rate-limit). No attempt is counted.
-- params: :ids (text[]), :dues (text[] of the due times, in the order of :ids), :worker, :now
UPDATE deliveries d SET status = 'pending', next_attempt_at = x.due, lease_until = NULL, leased_by = NULL, updated_at = :now
FROM unnest(:ids::text[], :dues::bigint[]) AS x(id, due)
WHERE d.id = x.id AND d.status = 'delivering' AND d.leased_by = :worker
