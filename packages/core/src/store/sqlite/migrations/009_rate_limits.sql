-- 009_rate_limits: a per-endpoint rate limit (docs/rules.md#rate-limit) and the adaptive concurrency the dispatcher
-- learned for it (docs/rules.md#adaptive-concurrency). Aligned with ../../postgres/migrations/009_rate_limits.sql.
ALTER TABLE endpoints ADD COLUMN rate_limit_per_s INTEGER CHECK (rate_limit_per_s IS NULL OR rate_limit_per_s BETWEEN 1 AND 10000);
-- NULL: not throttled (the endpoint's max_concurrency applies); written by the dispatcher when it changes, read as
-- the starting point after a restart and shown in the API.
ALTER TABLE endpoints ADD COLUMN effective_concurrency INTEGER;
-- One token bucket per rate-limited endpoint, shared by every worker: a claim locks the row, takes at most the whole
-- tokens it holds (refilled at rate_limit_per_s since refilled_at), and hands the rest of its claim back un-attempted.
-- scheduled_until: where the deferred rows' due times end (each is given the next free slot at the rate after it),
-- so a backlog is deferred once, spread at the rate, instead of being claimed and handed back at every token.
CREATE TABLE rate_buckets (
  endpoint_id TEXT PRIMARY KEY REFERENCES endpoints(id) ON DELETE CASCADE,
  tokens REAL NOT NULL,
  refilled_at INTEGER NOT NULL,
  scheduled_until INTEGER NOT NULL DEFAULT 0
);
