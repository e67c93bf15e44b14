-- get-endpoint-by-id: read to update its health in the same transaction. Locked (NO KEY: ingest's foreign-key
-- checks on the row still pass) because worker processes commit
-- attempts concurrently, and each must count on the other's streak (SQLite serializes writers instead).
-- params :id
SELECT * FROM endpoints WHERE id = :id FOR NO KEY UPDATE
