-- insert-message-labels: a message's channels and tags beside its event (kept once, like the event). params :event_pk, :tenant_id, :channels, :tags
INSERT INTO message_labels (event_pk, tenant_id, channels, tags) VALUES (:event_pk, :tenant_id, :channels, :tags)
ON CONFLICT (event_pk) DO NOTHING
