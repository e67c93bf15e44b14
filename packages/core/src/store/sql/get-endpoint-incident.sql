-- get-endpoint-incident: an endpoint's latest incident (docs/rules.md#notifications), open or ended; params :endpoint_id
SELECT * FROM endpoint_incidents WHERE endpoint_id = :endpoint_id
