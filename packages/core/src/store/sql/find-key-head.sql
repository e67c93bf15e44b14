-- find-key-head: the head of an ordering key on an endpoint (docs/rules.md#retry-now): its earliest delivery that is
-- pending, delivering or held, or (on_failure 'block') failed undismissed; none when the key is free.
-- params :endpoint_id, :ordering_key
SELECT id, status FROM deliveries
WHERE endpoint_id = :endpoint_id AND ordering_key = :ordering_key
  AND (status IN ('pending', 'delivering', 'held')
       OR (status = 'failed' AND dismissed_at IS NULL
           AND (SELECT ordering_on_failure FROM endpoints WHERE id = :endpoint_id) = 'block'))
ORDER BY ordering_seq LIMIT 1
