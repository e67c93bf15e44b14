// The `standard` scheme (Standard Webhooks, and svix's `svix-*` header aliases).
import { createHmac, sign, timingSafeEqual, verify } from 'node:crypto';
import { ReceiverError } from './errors.ts';
import { type HeaderSource, readHeader } from './headers.ts';
import type { KeySet, SigningKey } from './secret-key.ts';
import type { SignedRequest } from './signed-request.ts';

export const standardHeaderNames = Object.freeze({
  id: 'webhook-id',
  timestamp: 'webhook-timestamp',
  signature: 'webhook-signature',
});

const svixHeaderNames = Object.freeze({ id: 'svix-id', timestamp: 'svix-timestamp', signature: 'svix-signature' });
const DIGITS = /^\d{1,15}$/;

/**
 * HMAC-SHA256(key, id + "." + timestamp + "." + body), the bytes `v1,<base64>` encodes.
 *
 * @example
 * standardDigest(key, 'msg_1', '1614265330', '{"test": 2432232314}').toString('base64')
 */
export function standardDigest(key: Buffer, id: string, timestamp: string, body: string | Uint8Array): Buffer {
  return createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest();
}

/** At most this many `v1a` entries are checked: each costs an Ed25519 verification, and senders rotate with two. */
const MAX_V1A = 8;

/** The bytes a Standard Webhooks signature covers: `id.timestamp.body`. */
function signedContent(id: string, timestamp: string, body: string | Uint8Array): Buffer {
  return Buffer.concat([
    Buffer.from(`${id}.${timestamp}.`, 'utf8'),
    typeof body === 'string' ? Buffer.from(body, 'utf8') : body,
  ]);
}

/** Builds `v1,<b64> v1a,<b64>` for one or several keys: `v1` per HMAC secret, `v1a` per Ed25519 secret key (`whsk_`). */
export function formatStandardSignature(
  id: string,
  timestamp: string,
  keys: readonly SigningKey[] | KeySet,
  body: string | Uint8Array,
): string {
  const set: KeySet = Array.isArray(keys) ? { hmac: keys as readonly SigningKey[], ed25519: [] } : (keys as KeySet);
  const items = set.hmac.map((key) => `v1,${standardDigest(key.standard, id, timestamp, body).toString('base64')}`);
  for (const key of set.ed25519) {
    if (key.privateKey === undefined)
      throw new TypeError('a whpk_ public key cannot sign: sign with its whsk_ secret key');
    items.push(`v1a,${sign(null, signedContent(id, timestamp, body), key.privateKey).toString('base64')}`);
  }
  return items.join(' ');
}

/** Is this request signed with Standard Webhooks (or svix) headers? */
export function hasStandardSignature(headers: HeaderSource): boolean {
  return (
    readHeader(headers, standardHeaderNames.signature) !== undefined ||
    readHeader(headers, svixHeaderNames.signature) !== undefined
  );
}

/**
 * Checks the signature over the raw body (`v1` with HMAC secrets, `v1a` with Ed25519 public keys); the timestamp
 * window is checked by the caller.
 *
 * @example
 * matchStandardSignature(req.headers, rawBody, toKeySet(['whsec_…', 'whpk_…']))
 */
export function matchStandardSignature(
  headers: HeaderSource,
  body: string | Uint8Array,
  keySet: readonly SigningKey[] | KeySet,
): SignedRequest {
  const { hmac: keys, ed25519 } = Array.isArray(keySet)
    ? { hmac: keySet as readonly SigningKey[], ed25519: [] }
    : (keySet as KeySet);
  const header = readHeader(headers, standardHeaderNames.signature) ?? readHeader(headers, svixHeaderNames.signature);
  if (header === undefined || header.trim() === '') throw new ReceiverError('missing_signature');
  const id = readHeader(headers, standardHeaderNames.id) ?? readHeader(headers, svixHeaderNames.id);
  const timestamp = (
    readHeader(headers, standardHeaderNames.timestamp) ?? readHeader(headers, svixHeaderNames.timestamp)
  )?.trim();
  if (id === undefined || id === '') throw new ReceiverError('malformed_signature', { detail: 'no webhook-id header' });
  if (timestamp === undefined || !DIGITS.test(timestamp)) {
    throw new ReceiverError('malformed_signature', { detail: 'webhook-timestamp must be unix seconds' });
  }
  const candidates: Buffer[] = [];
  const asymmetric: Buffer[] = [];
  for (const item of header.split(' ')) {
    // Comparing decoded bytes skips re-encoding our digest to base64 on every request.
    if (item.startsWith('v1,')) {
      const bytes = Buffer.from(item.slice(3), 'base64');
      if (bytes.length === 32) candidates.push(bytes);
    } else if (item.startsWith('v1a,')) {
      const bytes = Buffer.from(item.slice(4), 'base64');
      if (bytes.length === 64) asymmetric.push(bytes);
    }
    // Future versions are not ours to check.
  }
  if (candidates.length === 0 && asymmetric.length === 0)
    throw new ReceiverError('malformed_signature', { detail: 'no v1 or v1a signature' });
  if (asymmetric.length > MAX_V1A)
    throw new ReceiverError('malformed_signature', { detail: `more than ${MAX_V1A} v1a signatures` });
  const verified = (kid: string | undefined): SignedRequest =>
    // `webhook-delivery` is Hookline's addition to the standard headers; other senders omit it.
    ({
      scheme: 'standard',
      eventId: id,
      deliveryId: readHeader(headers, 'webhook-delivery'),
      timestamp: Number(timestamp),
      kid,
    });
  if (candidates.length > 0) {
    for (const key of keys) {
      const digest = standardDigest(key.standard, id, timestamp, body);
      for (const candidate of candidates) {
        if (timingSafeEqual(digest, candidate)) return verified(key.kid);
      }
    }
  }
  if (asymmetric.length > 0 && ed25519.length > 0) {
    // Ed25519 verification by node:crypto (OpenSSL); there is no digest of ours to compare, so nothing to time.
    const content = signedContent(id, timestamp, body);
    for (const key of ed25519) {
      for (const signature of asymmetric) {
        if (verify(null, content, key.publicKey, signature)) return verified(key.kid);
      }
    }
  }
  throw new ReceiverError('signature_mismatch');
}
