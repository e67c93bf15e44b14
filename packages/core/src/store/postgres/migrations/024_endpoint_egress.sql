-- 024_endpoint_egress: an endpoint's way out (docs/rules.md#egress-proxy, #client-certificate, #oauth2): its proxy
-- choice, its client certificate (the key sealed under the master key) and its OAuth2 client (the secret sealed).
-- One row per endpoint that has any of them. Aligned with ../../sqlite/migrations/024_endpoint_egress.sql.
CREATE TABLE endpoint_egress (
  endpoint_id TEXT PRIMARY KEY REFERENCES endpoints(id) ON DELETE CASCADE,
  proxy TEXT,                                    -- null: the configuration's; 'none'; or a name under egress.proxies
  certificate_pem TEXT,                          -- the client certificate (chain), public
  certificate_key_sealed TEXT,                   -- its private key, AES-256-GCM under the master key
  certificate_subject TEXT,
  certificate_expires_at BIGINT,
  certificate_notified_at BIGINT,               -- when the expiry notice for this certificate was written
  oauth2 TEXT,                                   -- JSON {token_url, client_id, scope, audience}
  oauth2_secret_sealed TEXT,                     -- the client secret, AES-256-GCM under the master key
  updated_at BIGINT NOT NULL
);
CREATE INDEX endpoint_egress_certificate_expiry ON endpoint_egress (certificate_expires_at)
  WHERE certificate_expires_at IS NOT NULL AND certificate_notified_at IS NULL;
