-- get-endpoint-egress: params :endpoint_id
SELECT endpoint_id, proxy, certificate_pem, certificate_key_sealed, certificate_subject, certificate_expires_at,
       certificate_notified_at, oauth2, oauth2_secret_sealed, updated_at
FROM endpoint_egress WHERE endpoint_id = :endpoint_id
