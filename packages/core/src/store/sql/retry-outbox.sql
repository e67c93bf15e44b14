-- retry-outbox: a send failed: due again later (pending), or given up (abandoned); params :id, :status, :due_at, :error, :now
UPDATE outbox SET status = :status, tries = tries + 1, due_at = :due_at, lease_until = NULL, last_error = :error, updated_at = :now
WHERE id = :id AND status = 'pending'
