-- count-by-status
SELECT status, count(*) AS n FROM deliveries GROUP BY status
