-- lock-ordering-key: nothing to lock on SQLite, whose write transactions already run one at a time (BEGIN IMMEDIATE).
-- params: :endpoint_id, :ordering_key
SELECT 1 AS locked
