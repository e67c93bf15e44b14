// Verifies a webhook over its raw bytes: signature (either scheme), then the timestamp window.
import { ReceiverError } from './errors.ts';
import type { HeaderSource } from './headers.ts';
import { type KeySet, type SecretInput, toKeySet } from './secret-key.ts';
import { hasHooklineSignature, matchHooklineSignature } from './signature-hookline.ts';
import { hasStandardSignature, matchStandardSignature } from './signature-standard.ts';
import type { SignedRequest } from './signed-request.ts';

export type SignatureScheme = 'hookline' | 'standard';

export interface VerifierOptions {
  /**
   * One or several live secrets (rotation overlap); matched by `kid` when the signature names one. Ed25519 public
   * keys (`whpk_…`) verify Standard Webhooks `v1a` signatures; HMAC secrets (`whsec_…`) verify `v1`.
   */
  secrets: SecretInput | readonly SecretInput[];
  /** Pin a scheme, or `'auto'` (default) to pick by which signature header is present. */
  scheme?: SignatureScheme | 'auto';
  /** Accepted clock difference in both directions, seconds. Default 300. */
  toleranceSeconds?: number;
  /** Clock in milliseconds; injectable for tests. Default `Date.now`. */
  now?: () => number;
}

export interface Verifier {
  /** Returns what was verified, or throws a `ReceiverError` with a verification code. */
  verify(headers: HeaderSource, rawBody: string | Uint8Array): SignedRequest;
}

export const DEFAULT_TOLERANCE_SECONDS = 300;

/**
 * Builds a verifier with its keys decoded once; reuse it for every request.
 *
 * @example
 * const verifier = createVerifier({ secrets: [{ kid: '2025-01', secret: process.env.WEBHOOK_SECRET! }] });
 * const { eventId } = verifier.verify(req.headers, rawBody); // throws ReceiverError('signature_mismatch'), …
 */
export function createVerifier(options: VerifierOptions): Verifier {
  const keys = toKeySet(options.secrets);
  // Stryker disable next-line StringLiteral: matchScheme treats every value but 'hookline' and 'standard' as auto, so '' is equivalent
  const scheme = options.scheme ?? 'auto';
  const toleranceSeconds = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const now = options.now ?? Date.now;
  if (!(toleranceSeconds >= 0)) throw new TypeError('toleranceSeconds must be >= 0');

  return {
    verify(headers, rawBody) {
      // A body that is not bytes or text (a parsed object) cannot be what was signed.
      if (typeof rawBody !== 'string' && !(rawBody instanceof Uint8Array)) {
        throw new TypeError('verify() needs the raw body as Buffer, Uint8Array or string, not a parsed object');
      }
      const signed = matchScheme(scheme, headers, rawBody, keys);
      // Signature first, then time (docs/rules.md#receiver-verify): a tampered old request reads
      // "signature mismatch", a genuine one replayed later reads "timestamp too old".
      const nowSeconds = Math.floor(now() / 1000);
      if (nowSeconds - signed.timestamp > toleranceSeconds) throw new ReceiverError('timestamp_too_old');
      if (signed.timestamp - nowSeconds > toleranceSeconds) throw new ReceiverError('timestamp_too_far_ahead');
      return signed;
    },
  };
}

/**
 * One-shot verification; decodes the secrets on every call, so prefer `createVerifier` in a server.
 *
 * @example
 * verifyWebhook(req.headers, rawBody, { secrets: 'whsec_…', scheme: 'standard' });
 */
export function verifyWebhook(
  headers: HeaderSource,
  rawBody: string | Uint8Array,
  options: VerifierOptions,
): SignedRequest {
  return createVerifier(options).verify(headers, rawBody);
}

function matchScheme(
  scheme: SignatureScheme | 'auto',
  headers: HeaderSource,
  rawBody: string | Uint8Array,
  keys: KeySet,
): SignedRequest {
  // The hookline scheme is HMAC only: Ed25519 keys never match it.
  if (scheme === 'hookline') return matchHooklineSignature(headers, rawBody, keys.hmac);
  if (scheme === 'standard') return matchStandardSignature(headers, rawBody, keys);
  if (hasHooklineSignature(headers)) return matchHooklineSignature(headers, rawBody, keys.hmac);
  if (hasStandardSignature(headers)) return matchStandardSignature(headers, rawBody, keys);
  throw new ReceiverError('missing_signature');
}
