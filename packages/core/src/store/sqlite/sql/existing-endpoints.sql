-- existing-endpoints: which of these endpoints are still there (the others were deleted).
-- params: :ids (JSON array of endpoint ids)
SELECT id FROM endpoints WHERE id IN (SELECT value FROM json_each(:ids))
