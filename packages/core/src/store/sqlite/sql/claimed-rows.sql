-- claimed-rows: the deliveries a worker just leased, with their events. Their endpoints (and tenants' environments)
-- are read once per endpoint by claimed-endpoints, not repeated on every row.
-- params: :ids (JSON array of delivery ids)
SELECT d.*, ev.event_id AS ev_event_id, ev.type AS ev_type, ev.body AS ev_body,
       ev.traceparent AS ev_traceparent, ev.tracestate AS ev_tracestate
FROM deliveries d
JOIN events ev ON ev.id = d.event_pk
WHERE d.id IN (SELECT value FROM json_each(:ids))
