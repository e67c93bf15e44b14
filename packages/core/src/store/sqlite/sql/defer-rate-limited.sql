-- defer-rate-limited: of the rows a claim just read for a rate-limited endpoint, those past the bucket's tokens go back
-- un-attempted, each due at its own slot (:dues[i] for :ids[i]); the claim leases only the rest (lease-table.ts).
-- params: :ids (JSON array), :dues (JSON array, same order), :worker (unused on SQLite), :now
UPDATE deliveries
SET status = 'pending', updated_at = :now,
    next_attempt_at = (SELECT CAST(json_extract(:dues, '$[' || i.key || ']') AS INTEGER) FROM json_each(:ids) i WHERE i.value = deliveries.id)
WHERE id IN (SELECT value FROM json_each(:ids)) AND status IN ('pending', 'held')
