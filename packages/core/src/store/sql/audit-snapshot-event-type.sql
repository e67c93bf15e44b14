-- audit-snapshot-event-type: the event type row an audit entry diffs, every column; params :id (the name)
SELECT * FROM event_types WHERE name = :id
