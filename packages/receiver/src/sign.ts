// Signs a body the way a Hookline sender does, for integrators' own tests and tools.

import { type KeySet, type SecretInput, toKeySet } from './secret-key.ts';
import { formatHooklineSignature, hooklineHeaderNames } from './signature-hookline.ts';
import { formatStandardSignature, standardHeaderNames } from './signature-standard.ts';
import type { SignatureScheme } from './verify.ts';

export interface SignOptions {
  scheme?: SignatureScheme;
  /** Every live secret signs (rotation overlap), in order; a `whsk_` Ed25519 secret key signs `v1a` (standard scheme only; v1 entries come first). */
  secrets: SecretInput | readonly SecretInput[];
  /** The event id (`X-Webhook-Id` / `webhook-id`). */
  id: string;
  /** `X-Webhook-Delivery`, hookline scheme only. */
  deliveryId?: string;
  /** Unix seconds; default now. */
  timestamp?: number;
  body: string | Uint8Array;
}

/**
 * Returns the headers a sender would attach; send them with exactly these body bytes.
 *
 * @example
 * const headers = signWebhook({ secrets: { kid: 'k1', secret: 's3cret' }, id: 'evt_1', body });
 * await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body });
 */
export function signWebhook(options: SignOptions): Record<string, string> {
  const keys = toKeySet(options.secrets);
  const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  if ((options.scheme ?? 'hookline') === 'standard') {
    return {
      [standardHeaderNames.id]: options.id,
      [standardHeaderNames.timestamp]: timestamp,
      [standardHeaderNames.signature]: formatStandardSignature(options.id, timestamp, keys, options.body),
    };
  }
  const headers: Record<string, string> = {
    [hooklineHeaderNames.id]: options.id,
    [hooklineHeaderNames.timestamp]: timestamp,
    [hooklineHeaderNames.signature]: formatHooklineSignature(timestamp, hmacOnly(keys), options.body),
  };
  if (options.deliveryId !== undefined) headers[hooklineHeaderNames.delivery] = options.deliveryId;
  return headers;
}

function hmacOnly(keys: KeySet): KeySet['hmac'] {
  if (keys.ed25519.length > 0) throw new TypeError('Ed25519 keys (whsk_/whpk_) sign only the standard scheme (v1a)');
  return keys.hmac;
}
