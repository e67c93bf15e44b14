-- find-api-key: params :hash
SELECT * FROM api_keys WHERE hash = :hash
