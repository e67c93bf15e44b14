-- promote-next-of-keys: promote-next-of-key (store/sql) for every key a batch of records ended a delivery of, in one
-- statement per record transaction (SQLite): each key's first waiting delivery becomes due now.
-- params: :keys (JSON array of {"e": endpoint id, "k": ordering key}, each pair once), :now
UPDATE deliveries SET next_attempt_at = :now, updated_at = :now
WHERE id IN (
  SELECT (SELECT d.id FROM deliveries d
          WHERE d.endpoint_id = k.value ->> 'e' AND d.ordering_key = k.value ->> 'k' AND d.status = 'pending'
            AND d.next_attempt_at IS NULL
          ORDER BY d.ordering_seq LIMIT 1)
  FROM json_each(:keys) AS k
)
