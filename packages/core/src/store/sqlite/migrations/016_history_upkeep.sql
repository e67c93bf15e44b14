-- 016_history_upkeep: PostgreSQL's autovacuum thresholds for the history tables (its 016). Nothing changes on SQLite,
-- whose freed pages go back to the file's free list at once and are reused by the next rows.
SELECT 1;
