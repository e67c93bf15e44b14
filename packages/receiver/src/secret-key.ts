// Turns the secrets a user configures into HMAC key bytes, once, for both schemes.

/**
 * A secret as users hold it: a string (`whsec_<base64>` or, for the hookline scheme, raw
 * text), raw key bytes, or either with the key id (`kid`) the sender puts in its signature.
 */
export type SecretInput = string | Uint8Array | { kid?: string; secret: string | Uint8Array };

/** Key bytes decoded ahead of time so verification never re-decodes a secret per request. */
export interface SigningKey {
  readonly kid: string | undefined;
  /** Key for the hookline scheme: the secret exactly as shown (UTF-8 bytes of the whole string, `whsec_` included). */
  readonly hookline: Buffer;
  /** Key for Standard Webhooks: always base64-decoded (`whsec_` prefix optional), as its libraries do. */
  readonly standard: Buffer;
}

const WHSEC = 'whsec_';

/**
 * Decodes every configured secret into key bytes for both schemes.
 *
 * @example
 * toSigningKeys([{ kid: '2025-01', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }])
 */
export function toSigningKeys(secrets: SecretInput | readonly SecretInput[]): SigningKey[] {
  const list = Array.isArray(secrets) ? secrets : [secrets as SecretInput];
  if (list.length === 0) throw new TypeError('at least one secret is required');
  return list.map((input) => {
    const { kid, secret } =
      typeof input === 'string' || input instanceof Uint8Array ? { kid: undefined, secret: input } : input;
    const key = decodeSecret(secret);
    if (key.hookline.length === 0 || key.standard.length === 0) throw new TypeError('a secret must not be empty');
    return Object.freeze({ kid, ...key });
  });
}

function decodeSecret(secret: string | Uint8Array): { hookline: Buffer; standard: Buffer } {
  if (secret instanceof Uint8Array) {
    const bytes = Buffer.from(secret);
    return { hookline: bytes, standard: bytes };
  }
  // hookline signs with the string as shown (docs/rules.md#scheme-hookline); only Standard Webhooks decodes the base64 after `whsec_`.
  const standard = Buffer.from(secret.startsWith(WHSEC) ? secret.slice(WHSEC.length) : secret, 'base64');
  return { hookline: Buffer.from(secret, 'utf8'), standard };
}
