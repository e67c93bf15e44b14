-- 027_event_payload_format: what an event's body holds, recorded when it is accepted (docs/svix-compatibility.md#raw-payload):
-- `envelope` (Hookline's envelope around the data) or `raw` (the payload itself, the tenant's format at the time).
-- Reads of a message's payload take it from here instead of recognising an envelope in the body. Events accepted
-- before this migration take what that recognition said: an envelope is a JSON object that repeats the event's own
-- id and type (as strings) and has `occurred_at` and `data`; any other body is raw. One pass over the events table
-- (JSON compared as text, as JSON.stringify wrote it, so nothing is unescaped); only raw rows are written.
ALTER TABLE events ADD COLUMN payload_format TEXT NOT NULL DEFAULT 'envelope' CHECK (payload_format IN ('envelope', 'raw'));
UPDATE events e SET payload_format = 'raw'
WHERE NOT coalesce((
  SELECT json_typeof(j) = 'object'
     AND (j -> 'event_id')::text = to_json(e.event_id)::text
     AND (j -> 'type')::text = to_json(e.type)::text
     AND j -> 'occurred_at' IS NOT NULL
     AND j -> 'data' IS NOT NULL
  FROM (SELECT convert_from(e.body, 'UTF8')::json AS j) b
), false);
