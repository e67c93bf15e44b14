-- 011_ed25519_signing: how an endpoint signs (docs/rules.md#signing-ed25519), fixed at creation: 'hmac' secrets
-- (whsec_, v1) as before, or 'ed25519' key pairs (whsk_ sealed in endpoint_secrets like any secret, v1a, standard
-- scheme only). Existing endpoints sign with HMAC, as they did. Aligned with ../../postgres/migrations/011_ed25519_signing.sql.
ALTER TABLE endpoints ADD COLUMN signing TEXT NOT NULL DEFAULT 'hmac' CHECK (signing IN ('hmac', 'ed25519'));
