-- 016_history_upkeep: retention deletes finished deliveries, their attempts and events in batches (maintenance,
-- docs/rules.md#retention); the space they held is reused only once VACUUM has seen it. PostgreSQL's default
-- autovacuum waits until a fifth of a table is dead: with ten days kept, a day's purge is a tenth, so the tables would
-- grow for two days of every cycle and index bloat would follow. Vacuum once 2 % (and 5,000 rows) are dead or newly
-- inserted instead, so each retention pass's space is reused by the next day's rows (bench pg-history, "week").
ALTER TABLE deliveries SET (
  autovacuum_vacuum_scale_factor = 0.02,
  autovacuum_vacuum_threshold = 5000,
  autovacuum_vacuum_insert_scale_factor = 0.02,
  autovacuum_analyze_scale_factor = 0.02
);
ALTER TABLE attempts SET (
  autovacuum_vacuum_scale_factor = 0.02,
  autovacuum_vacuum_threshold = 5000,
  autovacuum_vacuum_insert_scale_factor = 0.02,
  autovacuum_analyze_scale_factor = 0.02
);
ALTER TABLE events SET (
  autovacuum_vacuum_scale_factor = 0.02,
  autovacuum_vacuum_threshold = 5000,
  autovacuum_vacuum_insert_scale_factor = 0.02,
  autovacuum_analyze_scale_factor = 0.02
);
