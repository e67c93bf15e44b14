-- get-failure-summary: params :endpoint_id
SELECT * FROM failure_summaries WHERE endpoint_id = :endpoint_id
