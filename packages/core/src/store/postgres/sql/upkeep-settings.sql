-- upkeep-settings: the settings that decide whether what retention frees is ever reused (docs/scaling.md#history), as
-- this session sees them. params: none
SELECT current_setting('autovacuum') AS autovacuum
