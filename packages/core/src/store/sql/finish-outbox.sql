-- finish-outbox: the notification went out (notice, operational event, mail); params :id, :now
UPDATE outbox SET status = 'sent', tries = tries + 1, lease_until = NULL, last_error = NULL, updated_at = :now
WHERE id = :id AND status = 'pending'
