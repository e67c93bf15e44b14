-- live-processes: the processes seen at or after :since, oldest first.
-- params: :since
SELECT process_id, role, epoch, settings, started_at, seen_at FROM process_settings
WHERE seen_at >= :since ORDER BY started_at, process_id
