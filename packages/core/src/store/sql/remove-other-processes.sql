-- remove-other-processes: the sole owner of a SQLite file forgets every other row (a killed predecessor's).
-- params: :process_id
DELETE FROM process_settings WHERE process_id <> :process_id
