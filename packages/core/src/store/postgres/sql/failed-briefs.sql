-- failed-briefs: what a failure summary lists of deliveries that just failed for good; params :ids (text[])
SELECT d.id, d.tenant_id, d.endpoint_id, d.is_money, ev.event_id, ev.type
FROM deliveries d JOIN events ev ON ev.id = d.event_pk
WHERE d.id = ANY(:ids::text[])
