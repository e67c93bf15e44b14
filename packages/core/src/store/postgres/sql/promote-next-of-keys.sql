-- promote-next-of-keys: SQLite's batched promote-next-of-key. PostgreSQL promotes key by key (promote-next-of-key),
-- each under the key's lock, so its store never calls this; kept so both dialects name the same statements.
-- params: :keys (JSON array of {"e": endpoint id, "k": ordering key}), :now
UPDATE deliveries SET next_attempt_at = :now, updated_at = :now
WHERE id IN (
  SELECT (SELECT d.id FROM deliveries d
          WHERE d.endpoint_id = k ->> 'e' AND d.ordering_key = k ->> 'k' AND d.status = 'pending'
            AND d.next_attempt_at IS NULL
          ORDER BY d.ordering_seq LIMIT 1)
  FROM jsonb_array_elements(:keys::jsonb) AS k
)
