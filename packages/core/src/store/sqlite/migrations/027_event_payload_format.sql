-- 027_event_payload_format: what an event's body holds, recorded when it is accepted (docs/svix-compatibility.md#raw-payload):
-- `envelope` (Hookline's envelope around the data) or `raw` (the payload itself, the tenant's format at the time).
-- Reads of a message's payload take it from here instead of recognising an envelope in the body. Events accepted
-- before this migration take what that recognition said: an envelope is a JSON object that repeats the event's own
-- id and type (as strings) and has `occurred_at` and `data`; any other body is raw. Aligned with
-- ../../postgres/migrations/027_event_payload_format.sql.
ALTER TABLE events ADD COLUMN payload_format TEXT NOT NULL DEFAULT 'envelope' CHECK (payload_format IN ('envelope', 'raw'));
UPDATE events SET payload_format = 'raw'
WHERE NOT coalesce((
  SELECT CASE WHEN json_valid(t) THEN
      json_type(t) = 'object'
      AND json_type(t, '$.event_id') = 'text' AND json_extract(t, '$.event_id') = events.event_id
      AND json_type(t, '$.type') = 'text' AND json_extract(t, '$.type') = events.type
      AND json_type(t, '$.occurred_at') IS NOT NULL
      AND json_type(t, '$.data') IS NOT NULL
    ELSE 0 END
  FROM (SELECT CAST(events.body AS TEXT) AS t)
), 0);
