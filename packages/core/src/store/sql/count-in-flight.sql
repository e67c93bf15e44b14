-- count-in-flight: leased deliveries of one endpoint.
-- params: :endpoint_id
SELECT count(*) AS n FROM deliveries WHERE endpoint_id = :endpoint_id AND status = 'delivering'
