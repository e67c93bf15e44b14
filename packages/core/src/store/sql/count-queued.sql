-- count-queued: no params. Deliveries not yet terminal, per status; each part reads a partial index, not the table.
SELECT status, count(*) AS n FROM deliveries WHERE status IN ('pending', 'held') GROUP BY status
UNION ALL
SELECT 'delivering' AS status, count(*) AS n FROM deliveries WHERE status = 'delivering'
