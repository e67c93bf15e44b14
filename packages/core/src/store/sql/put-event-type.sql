-- put-event-type: params :name, :description, :definition, :updated_at
INSERT INTO event_types (name, description, definition, updated_at) VALUES (:name, :description, :definition, :updated_at)
ON CONFLICT (name) DO UPDATE SET description = excluded.description, definition = excluded.definition, updated_at = excluded.updated_at
