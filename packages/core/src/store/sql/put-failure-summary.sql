-- put-failure-summary: params :endpoint_id, :count, :money, :first_failures (JSON), :first_at, :last_at, :last_sent_at
UPDATE failure_summaries SET count = :count, money = :money, first_failures = :first_failures, first_at = :first_at,
       last_at = :last_at, last_sent_at = :last_sent_at
WHERE endpoint_id = :endpoint_id
