-- deliveries-of-events: the deliveries of a page of events, one read for the page; by deliveries_event (the `+` keeps
-- SQLite, which plans before it sees the ids, from walking every delivery of the tenant instead).
-- params: :tenant_id, :event_pks (JSON array)
SELECT event_pk, id, endpoint_id, status, attempt_count FROM deliveries
WHERE event_pk IN (SELECT value FROM json_each(:event_pks)) AND +tenant_id = :tenant_id
ORDER BY event_pk, id
