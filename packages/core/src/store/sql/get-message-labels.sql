-- get-message-labels: params :event_pk
SELECT channels, tags FROM message_labels WHERE event_pk = :event_pk
