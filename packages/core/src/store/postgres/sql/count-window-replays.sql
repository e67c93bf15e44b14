-- count-window-replays: params :tenant_id, :since
SELECT count(*) AS n FROM replays WHERE tenant_id = :tenant_id AND kind = 'window' AND created_at >= :since
