-- get-endpoint-by-id: params :id
SELECT * FROM endpoints WHERE id = :id
