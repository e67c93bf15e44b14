-- message-attempts: every attempt of a message's deliveries (of one endpoint when :endpoint_id is not null), the newest
-- delivery first and its attempts newest first, each with the tenant's environment, its message (d_event_pk) and its
-- endpoint's URL (e_url, null once the endpoint is gone). params :tenant_id, :event_pk, :endpoint_id
SELECT a.*, t.environment, d.event_pk AS d_event_pk, e.url AS e_url
FROM deliveries d
JOIN attempts a ON a.delivery_id = d.id
JOIN tenants t ON t.id = a.tenant_id
LEFT JOIN endpoints e ON e.id = a.endpoint_id
WHERE d.tenant_id = :tenant_id AND d.event_pk = :event_pk
  AND (CAST(:endpoint_id AS TEXT) IS NULL OR d.endpoint_id = CAST(:endpoint_id AS TEXT))
ORDER BY d.id DESC, a.n DESC, a.started_at DESC
