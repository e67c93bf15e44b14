-- insert-deliveries: insert-delivery for every unordered delivery of an accepted batch in one statement (PostgreSQL
-- only); a test delivery is inserted already leased by its sender.
-- params (arrays, one element per delivery): :ids, :tenant_ids, :event_pks, :endpoint_ids, :statuses, :is_moneys,
--         :next_attempt_ats, :lease_untils, :leased_bys, :nows
INSERT INTO deliveries (id, tenant_id, event_pk, endpoint_id, status, is_money, next_attempt_at, lease_until, leased_by,
                        created_at, updated_at)
SELECT id, tenant_id, event_pk, endpoint_id, status, is_money, next_attempt_at, lease_until, leased_by, created_at, created_at
FROM unnest(:ids::text[], :tenant_ids::text[], :event_pks::text[], :endpoint_ids::text[], :statuses::text[],
            :is_moneys::integer[], :next_attempt_ats::bigint[], :lease_untils::bigint[], :leased_bys::text[],
            :nows::bigint[])
  AS u(id, tenant_id, event_pk, endpoint_id, status, is_money, next_attempt_at, lease_until, leased_by, created_at)
