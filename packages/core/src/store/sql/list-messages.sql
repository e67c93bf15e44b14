-- list-messages: a tenant's events newest first with their labels, after a cursor (an event id; '' for the first page).
-- :event_types is a JSON array text or null; :channel_like a LIKE pattern on the channels' JSON text or null.
-- params :tenant_id, :cursor, :event_types, :channel_like, :since, :until, :limit
SELECT e.*, l.channels AS label_channels, l.tags AS label_tags
FROM events e LEFT JOIN message_labels l ON l.event_pk = e.id
WHERE e.tenant_id = :tenant_id
  AND (:cursor = '' OR e.id < :cursor)
  AND (CAST(:event_types AS TEXT) IS NULL OR CAST(:event_types AS TEXT) LIKE '%"' || e.type || '"%')
  AND (CAST(:channel_like AS TEXT) IS NULL OR l.channels LIKE CAST(:channel_like AS TEXT))
  AND (CAST(:since AS BIGINT) IS NULL OR e.created_at >= CAST(:since AS BIGINT))
  AND (CAST(:until AS BIGINT) IS NULL OR e.created_at < CAST(:until AS BIGINT))
ORDER BY e.id DESC
LIMIT :limit
