-- 003_stranded_test_deliveries: test deliveries used to be inserted `pending` with no due time, so one whose send
-- never got recorded (process killed, store error) waited forever. Make those due: the dispatcher finishes them.
-- Only test deliveries were ever pending without a due time.
UPDATE deliveries SET next_attempt_at = updated_at WHERE status = 'pending' AND next_attempt_at IS NULL;
