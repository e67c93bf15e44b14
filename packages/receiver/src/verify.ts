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
  /** Returns what was verified, or throws a `ReceiverError` with a verification code (`invalid_argument` for a wrong call). */
  verify(headers: HeaderSource, rawBody: string | Uint8Array): SignedRequest;
}

export const DEFAULT_TOLERANCE_SECONDS = 300;

/**
 * Builds a verifier with its keys decoded once; reuse it for every request.
 *
 * @example
 * const verifier = createVerifier({ secrets: [{ kid: 'sec_01J…', secret: process.env.WEBHOOK_SECRET! }] });
 * const { eventId } = verifier.verify(req.headers, rawBody); // throws ReceiverError('signature_mismatch'), …
 */
export function createVerifier(options: VerifierOptions): Verifier {
  if (typeof options !== 'object' || options === null || !('secrets' in options))
    throw invalidArgument(
      `options must be an object with secrets, e.g. { secrets: [{ kid: 'sec_01J…', secret: 'whsec_…' }] }; got ${describeValue(options)}`,
    );
  let keys: KeySet;
  try {
    keys = toKeySet(options.secrets);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    throw invalidArgument(`options.secrets: ${error.message}`);
  }
  // Stryker disable next-line StringLiteral: matchScheme treats every value but 'hookline' and 'standard' as auto, so '' is equivalent
  const scheme = options.scheme ?? 'auto';
  if (scheme !== 'auto' && scheme !== 'hookline' && scheme !== 'standard')
    throw invalidArgument(`options.scheme must be 'hookline', 'standard' or 'auto'; got ${describeValue(scheme)}`);
  const toleranceSeconds = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const now = options.now ?? Date.now;
  if (!(toleranceSeconds >= 0)) throw invalidArgument('toleranceSeconds must be >= 0');

  return {
    verify(headers, rawBody) {
      if (typeof headers !== 'object' || headers === null || headers instanceof Uint8Array)
        throw invalidArgument(
          `headers must be the request's headers (req.headers, a plain object or fetch Headers), the first argument; got ${describeValue(headers)}`,
        );
      // A body that is not bytes or text (a parsed object) cannot be what was signed.
      if (typeof rawBody !== 'string' && !(rawBody instanceof Uint8Array)) {
        throw invalidArgument(
          `the raw body must be a Buffer, Uint8Array or string (the bytes as they arrived, before any JSON parser), the second argument; got ${describeValue(rawBody)}`,
        );
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
 * One-shot verification; decodes the secrets on every call, so prefer `createVerifier` in a server. Throws a
 * `ReceiverError`: a verification code (`signature_mismatch`, `timestamp_too_old`, …) for the sender's request, or
 * `invalid_argument` for a call that is wrong (arguments swapped, no secrets, a parsed body).
 *
 * @example
 * verifyWebhook(req.headers, rawBody, { secrets: [{ kid: 'sec_01J…', secret: 'whsec_…' }] });
 */
export function verifyWebhook(
  headers: HeaderSource,
  rawBody: string | Uint8Array,
  options: VerifierOptions,
): SignedRequest {
  return createVerifier(options).verify(headers, rawBody);
}

/** The catalog's error for a caller's mistake: a code to branch on, and a message that says what to pass instead. */
function invalidArgument(detail: string): ReceiverError {
  return new ReceiverError('invalid_argument', { detail });
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value instanceof Uint8Array) return 'a Buffer (the body?)';
  if (typeof value === 'object') return `an object with keys ${JSON.stringify(Object.keys(value).slice(0, 5))}`;
  if (typeof value === 'string')
    return `a string (${JSON.stringify(value.length > 24 ? `${value.slice(0, 24)}…` : value)})`;
  return typeof value;
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
