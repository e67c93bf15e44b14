// An endpoint's live signing secrets (HMAC secrets or ed25519 public keys) as the API answers them, and their JSON Schema.
import { SIGNINGS } from '@hookline/core';
import { named } from '../../http/schema-names.ts';
import { iso, nullableStr, nullableTime, obj, str, time } from '../../http/views.ts';

const signingField = { type: 'string', enum: [...SIGNINGS] } as const;
const secretField = {
  ...nullableStr,
  description: 'The HMAC signing secret (`whsec_…`); null for an ed25519 key, whose secret key is never shown.',
};
const publicKeyField = {
  ...nullableStr,
  description: 'The ed25519 public key (`whpk_…`) receivers verify v1a signatures with; null for an HMAC secret.',
};
export const SecretSchema = named(
  'SigningSecret',
  obj({
    kid: str,
    signing: signingField,
    secret: secretField,
    public_key: publicKeyField,
    created_at: time,
    expires_at: nullableTime,
  }),
);
export const SecretsSchema = named(
  'EndpointSecrets',
  obj({
    kid: { ...str, description: "The current secret's key id." },
    signing: signingField,
    secret: {
      ...secretField,
      description: 'The current HMAC signing secret (`whsec_…`); null on an ed25519 endpoint.',
    },
    public_key: {
      ...publicKeyField,
      description: 'The current ed25519 public key (`whpk_…`); null on an HMAC endpoint.',
    },
    secrets: {
      type: 'array',
      items: SecretSchema,
      description: "Every live secret (or key pair's public key), newest first; older ones retire at expires_at.",
    },
  }),
);
type LiveSecretView = {
  kid: string;
  signing: 'hmac' | 'ed25519';
  secret: string | null;
  publicKey: string | null;
  createdAt: number;
  expiresAt: number | null;
};
export const secretsView = (list: LiveSecretView[]) => ({
  kid: list[0].kid,
  signing: list[0].signing,
  secret: list[0].secret,
  public_key: list[0].publicKey,
  secrets: list.map((s) => ({
    kid: s.kid,
    signing: s.signing,
    secret: s.secret,
    public_key: s.publicKey,
    created_at: iso(s.createdAt),
    expires_at: iso(s.expiresAt),
  })),
});
