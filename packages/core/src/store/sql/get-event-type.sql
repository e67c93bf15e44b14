-- get-event-type: params :name
SELECT * FROM event_types WHERE name = :name
