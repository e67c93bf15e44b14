-- key-head: is delivery `d` the head of its ordering key (docs/rules.md#retry-now)? No earlier delivery of the key is
-- pending, delivering or held, nor (on_failure 'block') failed undismissed. Rows without a key are their own head.
-- Spelled like key-free (sqlite/sql/fragments/key-free.sql), so SQLite picks the same partial indexes.
(d.ordering_key IS NULL OR (
  NOT EXISTS (SELECT 1 FROM deliveries p
    WHERE p.endpoint_id = d.endpoint_id AND p.ordering_key = d.ordering_key AND p.ordering_key IS NOT NULL
      AND p.status IN ('pending', 'delivering', 'held') AND p.ordering_seq < d.ordering_seq)
  AND NOT EXISTS (SELECT 1 FROM deliveries p
    WHERE p.endpoint_id = d.endpoint_id AND p.ordering_key = d.ordering_key AND p.ordering_key IS NOT NULL
      AND p.status = 'failed' AND p.dismissed_at IS NULL AND p.ordering_seq < d.ordering_seq
      AND (SELECT ordering_on_failure FROM endpoints WHERE id = d.endpoint_id) = 'block')))
