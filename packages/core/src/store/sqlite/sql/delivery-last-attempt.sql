-- delivery-last-attempt: params :id
SELECT last_attempt_at FROM deliveries WHERE id = :id
