-- read-endpoints: endpoint rows (a record batch's endpoints in one statement).
-- params: :ids (JSON array of endpoint ids)
SELECT * FROM endpoints WHERE id IN (SELECT value FROM json_each(:ids))
