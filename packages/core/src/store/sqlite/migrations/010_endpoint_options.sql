-- 010_endpoint_options: per-endpoint payload filter and custom headers, and when the current pause began.
-- payload_filter: JSON filter on the envelope (docs/filters.md), NULL matches every event.
-- custom_headers: JSON object of name → value sent on every attempt (docs/rules.md#custom-headers).
-- paused_at: set by the triggers below whenever an endpoint becomes paused, by any path (manual, health sweep,
-- 410, consecutive failures), and cleared when it is active again; catch-up replays from it (docs/rules.md#catch-up).
ALTER TABLE endpoints ADD COLUMN payload_filter TEXT;
ALTER TABLE endpoints ADD COLUMN custom_headers TEXT NOT NULL DEFAULT '{}';
ALTER TABLE endpoints ADD COLUMN paused_at INTEGER;
UPDATE endpoints SET paused_at = updated_at WHERE status = 'paused';
CREATE TRIGGER endpoints_paused_at_insert AFTER INSERT ON endpoints
WHEN NEW.status = 'paused'
BEGIN
  UPDATE endpoints SET paused_at = NEW.updated_at WHERE id = NEW.id;
END;
CREATE TRIGGER endpoints_paused_at_update AFTER UPDATE OF status ON endpoints
WHEN (NEW.status = 'paused') <> (OLD.status = 'paused')
BEGIN
  UPDATE endpoints SET paused_at = CASE WHEN NEW.status = 'paused' THEN NEW.updated_at END WHERE id = NEW.id;
END;
