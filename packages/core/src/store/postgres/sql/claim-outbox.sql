-- claim-outbox: leases due notifications; workers sharing the database skip each other's rows.
-- params: :now, :lease_until, :limit
UPDATE outbox SET lease_until = :lease_until
WHERE id IN (SELECT id FROM outbox WHERE status = 'pending' AND due_at <= :now AND (lease_until IS NULL OR lease_until <= :now)
             ORDER BY due_at, id LIMIT :limit FOR UPDATE SKIP LOCKED)
RETURNING *
