-- lock-ordering-key: nothing to lock on SQLite, whose write transactions already run one at a time (BEGIN IMMEDIATE);
-- the store does not call it there (sql-store.ts lockKey). Kept so both dialects name the same statements.
-- params: :endpoint_id, :ordering_key
SELECT 1 AS locked
