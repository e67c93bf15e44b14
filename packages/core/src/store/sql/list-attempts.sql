-- list-attempts: params :delivery_id
SELECT * FROM attempts WHERE delivery_id = :delivery_id ORDER BY n, started_at
