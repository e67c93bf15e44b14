-- ensure-failure-summary: the endpoint's collection row exists before it is locked and updated; params :endpoint_id, :tenant_id
INSERT INTO failure_summaries (endpoint_id, tenant_id) VALUES (:endpoint_id, :tenant_id)
ON CONFLICT (endpoint_id) DO NOTHING
