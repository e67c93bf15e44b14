-- purge-processes: forgets the rows of processes not seen since :since (killed, or cut off for that long).
-- params: :since
DELETE FROM process_settings WHERE seen_at < :since
