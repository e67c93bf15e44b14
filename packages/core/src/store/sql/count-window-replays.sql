-- count-window-replays: params :tenant_id, :since — window replays that selected something (only those use the daily quota)
SELECT count(*) AS n FROM replays WHERE tenant_id = :tenant_id AND kind = 'window' AND created_at >= :since AND selected > 0
