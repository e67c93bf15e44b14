-- get-replay: params :tenant_id, :id
SELECT * FROM replays WHERE tenant_id = :tenant_id AND id = :id
