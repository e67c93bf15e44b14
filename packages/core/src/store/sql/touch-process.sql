-- touch-process: a process's heartbeat; changes no row when the row has expired and been purged.
-- params: :process_id, :seen_at
UPDATE process_settings SET seen_at = :seen_at WHERE process_id = :process_id
