-- hookline_endpoint_paused_at(): the trigger endpoints_paused_at (migration 010) runs before an endpoint row is
-- inserted or its status updated: paused_at is set whenever an endpoint becomes paused, by any path (manual, health
-- sweep, 410, consecutive failures), and cleared when it is active again; catch-up replays from it
-- (docs/rules.md#catch-up).
CREATE OR REPLACE FUNCTION hookline_endpoint_paused_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status = 'paused' AND (TG_OP = 'INSERT' OR OLD.status <> 'paused') THEN
    NEW.paused_at := NEW.updated_at;
  ELSIF NEW.status <> 'paused' THEN
    NEW.paused_at := NULL;
  END IF;
  RETURN NEW;
END
$$;
