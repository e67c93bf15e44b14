-- replays-of-deliveries: the replay each of these deliveries is part of (only those that are), read before they end:
-- ending clears replay_id, and the replay counts the delivery as done and failed.
-- params: :ids (JSON array)
SELECT id, replay_id FROM deliveries WHERE id IN (SELECT value FROM json_each(:ids)) AND replay_id IS NOT NULL
