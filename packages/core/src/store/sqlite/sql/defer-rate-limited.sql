-- defer-rate-limited: hand back, un-attempted, the part of a claim its endpoint's rate limit does not allow now; each
-- row is due again at its own slot (docs/rules.md#rate-limit). No attempt is counted.
-- params: :ids (JSON array), :dues (JSON array of the due times, in the order of :ids), :worker, :now
UPDATE deliveries
SET status = 'pending', lease_until = NULL, leased_by = NULL, updated_at = :now,
    next_attempt_at = (SELECT CAST(json_extract(:dues, '$[' || i.key || ']') AS INTEGER) FROM json_each(:ids) i WHERE i.value = deliveries.id)
WHERE id IN (SELECT value FROM json_each(:ids)) AND status = 'delivering' AND leased_by = :worker
