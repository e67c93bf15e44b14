-- insert-replay: params replay columns
INSERT INTO replays (id, tenant_id, endpoint_id, since_ms, until_ms, include_skipped, selected, attempted, succeeded, failed, kind, created_at)
VALUES (:id, :tenant_id, :endpoint_id, :since_ms, :until_ms, :include_skipped, :selected, 0, 0, 0, :kind, :created_at)
