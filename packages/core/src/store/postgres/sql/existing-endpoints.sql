-- existing-endpoints: which of these endpoints are still there (the others were deleted).
-- params: :ids (text[])
SELECT id FROM endpoints WHERE id = ANY(:ids::text[])
