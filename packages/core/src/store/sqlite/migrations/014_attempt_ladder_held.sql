-- 014_attempt_ladder_held: an attempt's history (CHANGELOG, Added: the attempt's ladder and held period).
-- attempts.ladder is the ladder that scheduled the attempt (the delivery's when it was claimed; 'fast' for a first
-- attempt); attempts.held_from/held_until the held
-- period (breaker open) that ended with this attempt. A delivery keeps its current held period in held_since (set by
-- its first hold, kept by a re-hold) and held_until (set by the release) until an attempt takes them over. Rows written
-- before this migration have none of these (NULL). Aligned with ../../postgres/migrations/014_attempt_ladder_held.sql.
ALTER TABLE attempts ADD COLUMN ladder TEXT;
ALTER TABLE attempts ADD COLUMN held_from INTEGER;
ALTER TABLE attempts ADD COLUMN held_until INTEGER;
ALTER TABLE deliveries ADD COLUMN held_since INTEGER;
ALTER TABLE deliveries ADD COLUMN held_until INTEGER;
