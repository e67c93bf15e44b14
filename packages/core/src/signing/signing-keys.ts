// Turns a secret string into HMAC key bytes (per scheme), cached, and generates new secrets.
import { randomBytes } from 'node:crypto';
import type { Scheme } from '../domain.ts';

export const SECRET_PREFIX = 'whsec_';

/** A bounded cache: the same few secrets sign every attempt of an endpoint, so decoding once pays off. */
const MAX_CACHED_KEYS = 1024;
const hooklineKeys = new Map<string, Buffer>();
const standardKeys = new Map<string, Buffer>();

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

function decodeBase64Secret(encoded: string): Buffer {
  // Buffer.from(…, 'base64') silently skips junk; a typo in a secret must fail loudly, not sign with other bytes.
  if (!BASE64.test(encoded)) throw new Error('signing secret is not valid base64 after the whsec_ prefix');
  return Buffer.from(encoded, 'base64');
}

function decodeKey(scheme: Scheme, secret: string): Buffer {
  if (secret.length === 0) throw new Error('signing secret is empty');
  // hookline: the secret exactly as shown, prefix included (docs/rules.md#scheme-hookline), so an integrator's
  // createHmac('sha256', secret) just works. Standard Webhooks base64-decodes the part after
  // `whsec_` (and an unprefixed secret too, as the standardwebhooks library does).
  if (scheme === 'hookline') return Buffer.from(secret, 'utf8');
  return decodeBase64Secret(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret);
}

/** The HMAC key bytes of `secret` under `scheme`; decoded once, then cached (shared Buffer: never mutate it). */
export function signingKey(scheme: Scheme, secret: string): Buffer {
  // Stryker disable next-line EqualityOperator: swapping the two maps keeps the schemes apart all the same (equivalent)
  const cache = scheme === 'standard' ? standardKeys : hooklineKeys;
  const hit = cache.get(secret);
  if (hit !== undefined) return hit;
  const key = decodeKey(scheme, secret);
  // Map keeps insertion order: evicting the first key drops the least recently inserted; hits are not
  // re-inserted because refreshing order on every signature costs more than an occasional re-decode.
  if (cache.size >= MAX_CACHED_KEYS) cache.delete(cache.keys().next().value as string);
  cache.set(secret, key);
  return key;
}

/** A new secret usable by both schemes, so an endpoint can switch scheme without rotating: `whsec_` + base64(32 random bytes). */
export function generateSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}
