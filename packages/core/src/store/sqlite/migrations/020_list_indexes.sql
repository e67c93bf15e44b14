-- 020_list_indexes: PostgreSQL's indexes for the lists' filters (its 020). Nothing here: SQLite plans a statement
-- once, before its parameters are bound, so the lists' optional filters (`:status IS NULL OR d.status = :status`)
-- cannot choose an index per filter, and each index would only cost the drain a write per delivery change.
SELECT 1;
