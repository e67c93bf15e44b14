-- claim-outbox: leases due notifications (the store's one process runs it inside BEGIN IMMEDIATE).
-- params: :now, :lease_until, :limit
UPDATE outbox SET lease_until = :lease_until
WHERE id IN (SELECT id FROM outbox WHERE status = 'pending' AND due_at <= :now AND (lease_until IS NULL OR lease_until <= :now)
             ORDER BY due_at, id LIMIT :limit)
RETURNING *
