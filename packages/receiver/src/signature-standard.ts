// The `standard` scheme (Standard Webhooks, and svix's `svix-*` header aliases).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ReceiverError } from './errors.ts';
import { readHeader, type HeaderSource } from './headers.ts';
import type { SigningKey } from './secret-key.ts';
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

/** Builds `v1,<b64> v1,<b64>` for one or several keys. */
export function formatStandardSignature(id: string, timestamp: string, keys: readonly SigningKey[], body: string | Uint8Array): string {
  return keys.map((key) => `v1,${standardDigest(key.standard, id, timestamp, body).toString('base64')}`).join(' ');
}

/** Is this request signed with Standard Webhooks (or svix) headers? */
export function hasStandardSignature(headers: HeaderSource): boolean {
  return readHeader(headers, standardHeaderNames.signature) !== undefined || readHeader(headers, svixHeaderNames.signature) !== undefined;
}

/**
 * Checks the signature over the raw body; the timestamp window is checked by the caller.
 *
 * @example
 * matchStandardSignature(req.headers, rawBody, toSigningKeys('whsec_…'))
 */
export function matchStandardSignature(headers: HeaderSource, body: string | Uint8Array, keys: readonly SigningKey[]): SignedRequest {
  const header = readHeader(headers, standardHeaderNames.signature) ?? readHeader(headers, svixHeaderNames.signature);
  if (header === undefined || header.trim() === '') throw new ReceiverError('missing_signature');
  const id = readHeader(headers, standardHeaderNames.id) ?? readHeader(headers, svixHeaderNames.id);
  const timestamp = (readHeader(headers, standardHeaderNames.timestamp) ?? readHeader(headers, svixHeaderNames.timestamp))?.trim();
  if (id === undefined || id === '') throw new ReceiverError('malformed_signature', { detail: 'no webhook-id header' });
  if (timestamp === undefined || !DIGITS.test(timestamp)) {
    throw new ReceiverError('malformed_signature', { detail: 'webhook-timestamp must be unix seconds' });
  }
  const candidates: Buffer[] = [];
  for (const item of header.split(' ')) {
    if (!item.startsWith('v1,')) continue; // v1a (asymmetric) and future versions are not ours to check
    // Comparing decoded bytes skips re-encoding our digest to base64 on every request.
    const bytes = Buffer.from(item.slice(3), 'base64');
    if (bytes.length === 32) candidates.push(bytes);
  }
  if (candidates.length === 0) throw new ReceiverError('malformed_signature', { detail: 'no v1 signature' });
  for (const key of keys) {
    const digest = standardDigest(key.standard, id, timestamp, body);
    for (const candidate of candidates) {
      if (timingSafeEqual(digest, candidate)) {
        // `webhook-delivery` is Hookline's addition to the standard headers; other senders omit it.
        const deliveryId = readHeader(headers, 'webhook-delivery');
        return { scheme: 'standard', eventId: id, deliveryId, timestamp: Number(timestamp), kid: key.kid };
      }
    }
  }
  throw new ReceiverError('signature_mismatch');
}
