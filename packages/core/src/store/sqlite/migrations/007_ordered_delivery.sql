-- 007_ordered_delivery: ordered delivery per key (docs/rules.md#ordered-delivery). An event may carry an ordering
-- key; an endpoint with ordering 'key' gives each of its deliveries that key and the next number of the key's
-- sequence on that endpoint (the accept order). The claim skips a delivery while an earlier one of its key is unfinished
-- (or, for on_failure 'block', failed and not dismissed); dismissed_at marks a failed delivery dismissed.
ALTER TABLE events ADD COLUMN ordering_key TEXT;
ALTER TABLE endpoints ADD COLUMN ordering TEXT NOT NULL DEFAULT 'none' CHECK (ordering IN ('none', 'key'));
ALTER TABLE endpoints ADD COLUMN ordering_on_failure TEXT NOT NULL DEFAULT 'continue' CHECK (ordering_on_failure IN ('continue', 'block'));
ALTER TABLE deliveries ADD COLUMN ordering_key TEXT;
ALTER TABLE deliveries ADD COLUMN ordering_seq INTEGER;
ALTER TABLE deliveries ADD COLUMN dismissed_at INTEGER;
-- Every keyed delivery, for the next sequence number at insert (unique: one place per number).
CREATE UNIQUE INDEX deliveries_key_seq ON deliveries (endpoint_id, ordering_key, ordering_seq) WHERE ordering_key IS NOT NULL;
-- The claim's checks read only the unfinished and the undismissed failed rows of a key, never its history.
CREATE INDEX deliveries_key_open ON deliveries (endpoint_id, ordering_key, ordering_seq)
  WHERE ordering_key IS NOT NULL AND status IN ('pending', 'delivering', 'held');
CREATE INDEX deliveries_key_failed ON deliveries (endpoint_id, ordering_key, ordering_seq)
  WHERE ordering_key IS NOT NULL AND status = 'failed' AND dismissed_at IS NULL;
