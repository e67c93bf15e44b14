-- remove-process: a process that stops (or refused to start) takes its row with it.
-- params: :process_id
DELETE FROM process_settings WHERE process_id = :process_id
