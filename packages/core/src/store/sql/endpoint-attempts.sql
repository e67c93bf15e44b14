-- endpoint-attempts: a page of an endpoint's deliveries, newest first (keyset on id, '~' for the first page; created
-- within :since/:until when given), each with its attempts newest first: one row per attempt, one row with null
-- attempt columns for a delivery not attempted yet (it still takes its place in the page). d_id and d_event_pk name the
-- delivery, e_url the endpoint's URL. params :tenant_id, :endpoint_id, :since, :until, :before, :limit
WITH page AS (
  SELECT d.id, d.event_pk FROM deliveries d JOIN events ev ON ev.id = d.event_pk
  WHERE d.tenant_id = :tenant_id AND ev.tenant_id = :tenant_id AND d.endpoint_id = :endpoint_id
    AND d.id < CAST(:before AS TEXT)
    AND (CAST(:since AS BIGINT) IS NULL OR d.created_at >= CAST(:since AS BIGINT))
    AND (CAST(:until AS BIGINT) IS NULL OR d.created_at <= CAST(:until AS BIGINT))
  ORDER BY d.id DESC LIMIT :limit
)
SELECT a.*, t.environment, page.id AS d_id, page.event_pk AS d_event_pk, e.url AS e_url
FROM page
LEFT JOIN endpoints e ON e.id = :endpoint_id
LEFT JOIN attempts a ON a.delivery_id = page.id
LEFT JOIN tenants t ON t.id = a.tenant_id
ORDER BY page.id DESC, a.n DESC, a.started_at DESC
