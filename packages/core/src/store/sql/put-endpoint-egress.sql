-- put-endpoint-egress: the endpoint's whole egress row; params :endpoint_id, :proxy, :certificate_pem,
-- :certificate_key_sealed, :certificate_subject, :certificate_expires_at, :certificate_notified_at, :oauth2,
-- :oauth2_secret_sealed, :updated_at
INSERT INTO endpoint_egress (endpoint_id, proxy, certificate_pem, certificate_key_sealed, certificate_subject,
                             certificate_expires_at, certificate_notified_at, oauth2, oauth2_secret_sealed, updated_at)
VALUES (:endpoint_id, :proxy, :certificate_pem, :certificate_key_sealed, :certificate_subject,
        :certificate_expires_at, :certificate_notified_at, :oauth2, :oauth2_secret_sealed, :updated_at)
ON CONFLICT (endpoint_id) DO UPDATE SET proxy = excluded.proxy, certificate_pem = excluded.certificate_pem,
  certificate_key_sealed = excluded.certificate_key_sealed, certificate_subject = excluded.certificate_subject,
  certificate_expires_at = excluded.certificate_expires_at, certificate_notified_at = excluded.certificate_notified_at,
  oauth2 = excluded.oauth2, oauth2_secret_sealed = excluded.oauth2_secret_sealed, updated_at = excluded.updated_at
