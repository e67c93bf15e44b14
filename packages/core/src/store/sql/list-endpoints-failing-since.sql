-- list-endpoints-failing-since: degraded endpoints whose streak began before :before
SELECT * FROM endpoints WHERE status = 'degraded' AND failing_since IS NOT NULL AND failing_since <= :before
