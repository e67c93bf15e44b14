-- bump-endpoint-version: workers reload secrets when the version moves; params :id, :now
UPDATE endpoints SET version = version + 1, updated_at = :now WHERE id = :id
