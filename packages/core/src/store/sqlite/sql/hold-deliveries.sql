-- hold-deliveries: a leased delivery waits on an open breaker; no attempt is spent. The held period starts at the
-- first hold (a re-hold while the breaker stays open keeps it) and is open again until the next release. :ids are the
-- deliveries the worker holds leased (in memory, lease-table.ts: the caller picks them); the lease is dropped after.
-- params: :ids (JSON array), :worker (unused on SQLite), :until, :now
UPDATE deliveries SET status = 'held', next_attempt_at = :until, lease_until = NULL, leased_by = NULL,
       held_since = coalesce(held_since, :now), held_until = NULL, updated_at = :now
WHERE id IN (SELECT value FROM json_each(:ids)) AND status IN ('pending', 'held', 'delivering')
