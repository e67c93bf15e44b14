-- deliveries-of-events: the deliveries of a page of events, one read for the page; served by deliveries_event.
-- params: :tenant_id, :event_pks (text[])
SELECT event_pk, id, endpoint_id, status, attempt_count FROM deliveries
WHERE event_pk = ANY(:event_pks::text[]) AND tenant_id = :tenant_id
ORDER BY event_pk, id
