-- list-event-types
SELECT * FROM event_types ORDER BY name
