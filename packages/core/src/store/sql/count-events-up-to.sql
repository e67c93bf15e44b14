-- count-events-up-to: a tenant's events, counted up to :cap at most (an index-only walk of at most :cap entries).
-- params: :tenant_id, :cap
SELECT count(*) AS n FROM (SELECT 1 FROM events WHERE tenant_id = :tenant_id LIMIT :cap) capped
