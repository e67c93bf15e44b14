-- count-events-of-type-up-to: a tenant's events of one type, counted up to :cap at most.
-- params: :tenant_id, :type, :cap
SELECT count(*) AS n FROM (SELECT 1 FROM events WHERE tenant_id = :tenant_id AND type = :type LIMIT :cap) capped
