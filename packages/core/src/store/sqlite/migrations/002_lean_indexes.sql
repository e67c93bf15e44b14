-- 002_lean_indexes: fewer index entries touched per delivery on the dispatcher's hot path.
-- attempts were indexed by tenant and by endpoint time, but nothing reads them that way (only by delivery).
DROP INDEX attempts_tenant_time;
DROP INDEX attempts_endpoint_time;
-- Only leased rows need their lease expiry indexed (release-expired-leases).
DROP INDEX deliveries_leased;
CREATE INDEX deliveries_leased ON deliveries (lease_until) WHERE status = 'delivering';
-- Only finished rows need their age indexed (purge-deliveries); a claim or a retry no longer moves them.
DROP INDEX deliveries_updated;
CREATE INDEX deliveries_finished ON deliveries (updated_at) WHERE status IN ('succeeded', 'failed', 'skipped');
-- Only waiting rows need their due time indexed (claim-due, next-due-at); a finished row leaves it for good.
DROP INDEX deliveries_due;
CREATE INDEX deliveries_due ON deliveries (status, next_attempt_at) WHERE status IN ('pending', 'held');
