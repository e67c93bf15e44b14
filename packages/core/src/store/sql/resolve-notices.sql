-- resolve-notices: marks an ended incident's notices resolved, once; params :notice_id, :paused_notice_id, :resolved_at
UPDATE notices SET resolved_at = :resolved_at
WHERE id IN (:notice_id, :paused_notice_id) AND resolved_at IS NULL
