// Builds the signature headers of one attempt for the endpoint's scheme (docs/rules.md#signing).
import { createHmac, sign } from 'node:crypto';
import type { Scheme } from '../domain.ts';
import { ed25519PrivateKey, isEd25519Secret } from './ed25519-keys.ts';
import { signingKey } from './signing-keys.ts';

/** Header names as sent; HTTP header names are case-insensitive, receivers must not rely on case. */
export const HOOKLINE_HEADERS = {
  id: 'X-Webhook-Id',
  delivery: 'X-Webhook-Delivery',
  timestamp: 'X-Webhook-Timestamp',
  signature: 'X-Webhook-Signature',
} as const;

/**
 * Standard Webhooks names. `webhook-delivery` is Hookline's addition: the spec defines no delivery id,
 * verifiers ignore unknown headers, and it keeps the scheme's naming family (it is not signed).
 */
export const STANDARD_HEADERS = {
  id: 'webhook-id',
  delivery: 'webhook-delivery',
  timestamp: 'webhook-timestamp',
  signature: 'webhook-signature',
} as const;

export interface SigningSecret {
  kid: string;
  secret: string;
}

export interface SignInput {
  scheme: Scheme;
  eventId: string;
  deliveryId: string;
  /** The attempt's own time, whole Unix seconds. */
  timestampSec: number;
  /** The exact bytes sent. */
  body: Buffer;
  /** Every live secret, current first; during a rotation's overlap there are several. `whsk_` keys sign v1a (standard only). */
  secrets: readonly SigningSecret[];
}

/** The scheme's id, delivery, timestamp and signature headers for one attempt. */
export function signHeaders(input: SignInput): Record<string, string> {
  const { scheme, eventId, deliveryId, timestampSec, body, secrets } = input;
  if (secrets.length === 0) throw new Error('signHeaders needs at least one secret');
  if (!Number.isSafeInteger(timestampSec) || timestampSec < 0) {
    throw new Error(`timestampSec must be whole non-negative seconds, got ${timestampSec}`);
  }
  const t = String(timestampSec);

  if (scheme === 'standard') {
    const prefix = `${eventId}.${t}.`;
    let signature = '';
    let signed: Buffer | undefined;
    for (let i = 0; i < secrets.length; i++) {
      const secret = secrets[i].secret;
      let item: string;
      if (isEd25519Secret(secret)) {
        // Ed25519 signs the whole message at once (no streaming API); built once per attempt, shared by every key.
        signed ??= Buffer.concat([Buffer.from(prefix, 'utf8'), body]);
        item = `v1a,${sign(null, signed, ed25519PrivateKey(secret)).toString('base64')}`;
      } else {
        item = `v1,${createHmac('sha256', signingKey('standard', secret)).update(prefix).update(body).digest('base64')}`;
      }
      signature += (i === 0 ? '' : ' ') + item;
    }
    return {
      [STANDARD_HEADERS.id]: eventId,
      [STANDARD_HEADERS.delivery]: deliveryId,
      [STANDARD_HEADERS.timestamp]: t,
      [STANDARD_HEADERS.signature]: signature,
    };
  }

  const prefix = `${t}.`;
  let signature = `t=${t}`;
  for (const { kid, secret } of secrets) {
    if (isEd25519Secret(secret)) throw new Error('ed25519 keys sign only the standard scheme (v1a)');
    if (kid.length === 0 || /[,=\s]/.test(kid))
      throw new Error(`kid ${JSON.stringify(kid)} cannot appear in a signature header`);
    const mac = createHmac('sha256', signingKey('hookline', secret)).update(prefix).update(body).digest('hex');
    signature += `,v1=${mac},kid=${kid}`;
  }
  return {
    [HOOKLINE_HEADERS.id]: eventId,
    [HOOKLINE_HEADERS.delivery]: deliveryId,
    [HOOKLINE_HEADERS.timestamp]: t,
    [HOOKLINE_HEADERS.signature]: signature,
  };
}
