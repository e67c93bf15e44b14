-- list-deliveries: newest first, keyset on id; NULL filters match everything. The event's tenant is the delivery's:
-- said on both sides so that a filter on the event's type or id is a range of the events' (tenant_id, …) indexes.
-- params :tenant_id, :status, :endpoint_id, :event_type, :event_id, :since, :until, :before ('~' for the first page), :limit
-- Each delivery of the page carries its latest attempt's response (status, excerpt, error): the dead letter shows what
-- the receiver answered (docs/rules.md#dead-letter); read for the page's rows only, by attempts_delivery.
-- A delivery leased in memory has the status delivering (docs/rules.md#sqlite-leases).
SELECT page.*,
  la.response_status AS last_response_status, la.response_excerpt AS last_response_excerpt,
  la.error_message AS last_error_message
FROM (
  SELECT d.*, ev.event_id AS ev_event_id, ev.type AS ev_type FROM deliveries d JOIN events ev ON ev.id = d.event_pk
  WHERE d.tenant_id = :tenant_id AND ev.tenant_id = :tenant_id AND d.id < :before
    AND (:status IS NULL OR (CASE WHEN hookline_leased(d.id) THEN 'delivering' ELSE d.status END) = :status)
    AND (:endpoint_id IS NULL OR d.endpoint_id = :endpoint_id)
    AND (:event_type IS NULL OR ev.type = :event_type)
    AND (:event_id IS NULL OR ev.event_id = :event_id)
    AND (:since IS NULL OR d.created_at >= :since)
    AND (:until IS NULL OR d.created_at <= :until)
  ORDER BY d.id DESC LIMIT :limit
) page
LEFT JOIN attempts la ON la.id = (
  SELECT a.id FROM attempts a WHERE a.delivery_id = page.id ORDER BY a.n DESC LIMIT 1
)
ORDER BY page.id DESC
