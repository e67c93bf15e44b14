-- 010_endpoint_options: per-endpoint payload filter and custom headers, and when the current pause began.
-- payload_filter: JSON filter on the envelope (docs/filters.md), NULL matches every event.
-- custom_headers: JSON object of name → value sent on every attempt (docs/rules.md#custom-headers).
-- paused_at: set by the trigger below whenever an endpoint becomes paused, by any path (manual, health sweep,
-- 410, consecutive failures), and cleared when it is active again; catch-up replays from it (docs/rules.md#catch-up).
ALTER TABLE endpoints ADD COLUMN payload_filter TEXT;
ALTER TABLE endpoints ADD COLUMN custom_headers TEXT NOT NULL DEFAULT '{}';
ALTER TABLE endpoints ADD COLUMN paused_at BIGINT;
UPDATE endpoints SET paused_at = updated_at WHERE status = 'paused';
CREATE FUNCTION hookline_endpoint_paused_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status = 'paused' AND (TG_OP = 'INSERT' OR OLD.status <> 'paused') THEN
    NEW.paused_at := NEW.updated_at;
  ELSIF NEW.status <> 'paused' THEN
    NEW.paused_at := NULL;
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER endpoints_paused_at BEFORE INSERT OR UPDATE OF status ON endpoints
FOR EACH ROW EXECUTE FUNCTION hookline_endpoint_paused_at();
