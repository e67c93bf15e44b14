-- breaker-window: distinct deliveries of the scope whose latest attempt lies in the window, and how many of those
-- attempts were delivery failures. params :scope_key, :since
SELECT count(*) AS deliveries, coalesce(sum(failed), 0) AS failures
FROM breaker_deliveries WHERE scope_key = :scope_key AND attempted_at >= :since
