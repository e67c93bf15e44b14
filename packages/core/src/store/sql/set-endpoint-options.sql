-- set-endpoint-options: an endpoint's payload filter and custom headers, written beside insert/update-endpoint.
-- params :id, :payload_filter (JSON or null), :custom_headers (JSON object)
UPDATE endpoints SET payload_filter = :payload_filter, custom_headers = :custom_headers WHERE id = :id
