-- get-failure-summary: locked until commit, so concurrent workers add to the same count; params :endpoint_id
SELECT * FROM failure_summaries WHERE endpoint_id = :endpoint_id FOR UPDATE
