-- read-endpoints: endpoint rows as committed, not locked (a record batch locks only the ones it will change).
-- params: :ids (text[])
SELECT * FROM endpoints WHERE id = ANY(:ids::text[])
