-- durability-settings: the settings that decide whether a COMMIT that returned is on disk, as this session sees them
-- (server, database and role settings applied). params: none
SELECT current_setting('synchronous_commit') AS synchronous_commit, current_setting('fsync') AS fsync,
       current_setting('full_page_writes') AS full_page_writes
