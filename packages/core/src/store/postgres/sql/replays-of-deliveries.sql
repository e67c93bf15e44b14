-- replays-of-deliveries: the replay each of these deliveries is part of (only those that are), read before they end:
-- ending clears replay_id, and the replay counts the delivery as done and failed.
-- params: :ids (text[])
SELECT id, replay_id FROM deliveries WHERE id = ANY(:ids::text[]) AND replay_id IS NOT NULL
