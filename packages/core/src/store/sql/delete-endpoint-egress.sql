-- delete-endpoint-egress: params :endpoint_id
DELETE FROM endpoint_egress WHERE endpoint_id = :endpoint_id
