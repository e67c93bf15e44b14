-- message-destinations: a message's deliveries, oldest first, each with its endpoint's row and the delivery's state
-- (d_id, d_status, d_next_attempt_at). params :tenant_id, :event_pk
SELECT e.*, d.id AS d_id, d.status AS d_status, d.next_attempt_at AS d_next_attempt_at
FROM deliveries d JOIN endpoints e ON e.id = d.endpoint_id
WHERE d.tenant_id = :tenant_id AND d.event_pk = :event_pk
ORDER BY d.id
