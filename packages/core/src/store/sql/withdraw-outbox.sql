-- withdraw-outbox: takes back a notification nothing has seen yet: pending, never tried, not leased, not yet due.
-- A drainer that claimed it first wins (the row is leased): it is then sent. params :id, :now
DELETE FROM outbox
WHERE id = :id AND status = 'pending' AND tries = 0 AND lease_until IS NULL AND due_at > :now
