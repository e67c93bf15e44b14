-- endpoint-messages: a page of an endpoint's deliveries, newest first (keyset on id, '~' for the first page; created
-- within :since/:until when given), each with its event's row, the message's labels (label_channels, label_tags) and
-- the delivery's state (d_id, d_status, d_next_attempt_at). params :tenant_id, :endpoint_id, :since, :until, :before,
-- :limit
SELECT ev.*, l.channels AS label_channels, l.tags AS label_tags,
  d.id AS d_id, d.status AS d_status, d.next_attempt_at AS d_next_attempt_at
FROM deliveries d
JOIN events ev ON ev.id = d.event_pk
LEFT JOIN message_labels l ON l.event_pk = d.event_pk
WHERE d.tenant_id = :tenant_id AND ev.tenant_id = :tenant_id AND d.endpoint_id = :endpoint_id
  AND d.id < CAST(:before AS TEXT)
  AND (CAST(:since AS BIGINT) IS NULL OR d.created_at >= CAST(:since AS BIGINT))
  AND (CAST(:until AS BIGINT) IS NULL OR d.created_at <= CAST(:until AS BIGINT))
ORDER BY d.id DESC
LIMIT :limit
