-- failed-briefs: what a failure summary lists of deliveries that just failed for good; params :ids (JSON array)
SELECT d.id, d.tenant_id, d.endpoint_id, d.is_money, ev.event_id, ev.type
FROM deliveries d JOIN events ev ON ev.id = d.event_pk
WHERE d.id IN (SELECT value FROM json_each(:ids))
