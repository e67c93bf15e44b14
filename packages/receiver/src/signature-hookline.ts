// The `hookline` scheme: `X-Webhook-Signature: t=<s>,v1=<hex>,kid=<id>[,v1=<hex>,kid=<id>…]`.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ReceiverError } from './errors.ts';
import { type HeaderSource, readHeader } from './headers.ts';
import type { SigningKey } from './secret-key.ts';
import type { SignedRequest } from './signed-request.ts';

export const hooklineHeaderNames = Object.freeze({
  id: 'x-webhook-id',
  delivery: 'x-webhook-delivery',
  timestamp: 'x-webhook-timestamp',
  signature: 'x-webhook-signature',
});

const DIGITS = /^\d{1,15}$/;
const HEX64 = /^[0-9a-fA-F]{64}$/;

/**
 * HMAC-SHA256(key, timestamp + "." + body), the bytes the `v1=` hex encodes.
 *
 * @example
 * hooklineDigest(Buffer.from('secret'), '1712812010', '{"a":1}').toString('hex')
 */
export function hooklineDigest(key: Buffer, timestamp: string, body: string | Uint8Array): Buffer {
  return createHmac('sha256', key).update(`${timestamp}.`).update(body).digest();
}

/** Builds the signature header value for one or several keys (rotation overlap). */
export function formatHooklineSignature(
  timestamp: string,
  keys: readonly SigningKey[],
  body: string | Uint8Array,
): string {
  let value = `t=${timestamp}`;
  for (const key of keys) {
    value += `,v1=${hooklineDigest(key.hookline, timestamp, body).toString('hex')}`;
    if (key.kid !== undefined) value += `,kid=${key.kid}`;
  }
  return value;
}

/** Is this request signed with the hookline scheme? */
export function hasHooklineSignature(headers: HeaderSource): boolean {
  return readHeader(headers, hooklineHeaderNames.signature) !== undefined;
}

/**
 * Checks the signature over the raw body; the timestamp window is checked by the caller.
 *
 * @example
 * matchHooklineSignature(req.headers, rawBody, toSigningKeys('my secret'))
 */
export function matchHooklineSignature(
  headers: HeaderSource,
  body: string | Uint8Array,
  keys: readonly SigningKey[],
): SignedRequest {
  const header = readHeader(headers, hooklineHeaderNames.signature);
  if (header === undefined || header.trim() === '') throw new ReceiverError('missing_signature');
  const { timestamp, entries } = parseHooklineSignature(header);
  const timestampHeader = readHeader(headers, hooklineHeaderNames.timestamp);
  // The signed `t` is authoritative; a disagreeing header means something rewrote the request.
  if (timestampHeader !== undefined && timestampHeader.trim() !== timestamp) {
    throw new ReceiverError('malformed_signature', { detail: 'X-Webhook-Timestamp differs from t=' });
  }
  const eventId = readHeader(headers, hooklineHeaderNames.id);
  const deliveryId = readHeader(headers, hooklineHeaderNames.delivery);
  const digests = new Map<SigningKey, Buffer>();
  for (const entry of entries) {
    const byKid = entry.kid === undefined ? [] : keys.filter((k) => k.kid === entry.kid);
    // An unknown or absent kid falls back to every key: still needs a valid HMAC, costs a little CPU.
    for (const key of byKid.length > 0 ? byKid : keys) {
      let digest = digests.get(key);
      if (digest === undefined) {
        digest = hooklineDigest(key.hookline, timestamp, body);
        digests.set(key, digest);
      }
      if (timingSafeEqual(digest, entry.v1)) {
        return { scheme: 'hookline', eventId, deliveryId, timestamp: Number(timestamp), kid: key.kid ?? entry.kid };
      }
    }
  }
  throw new ReceiverError('signature_mismatch');
}

interface ParsedSignature {
  timestamp: string;
  entries: Array<{ v1: Buffer; kid: string | undefined }>;
}

function parseHooklineSignature(header: string): ParsedSignature {
  let timestamp: string | undefined;
  const entries: ParsedSignature['entries'] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) throw new ReceiverError('malformed_signature', { detail: `unexpected "${part.trim()}"` });
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (name === 't') {
      if (timestamp !== undefined || !DIGITS.test(value)) {
        throw new ReceiverError('malformed_signature', { detail: 't= must appear once, as unix seconds' });
      }
      timestamp = value;
    } else if (name === 'v1') {
      if (!HEX64.test(value))
        throw new ReceiverError('malformed_signature', { detail: 'v1= must be 64 hex characters' });
      entries.push({ v1: Buffer.from(value, 'hex'), kid: undefined });
    } else if (name === 'kid') {
      const last = entries[entries.length - 1];
      if (last === undefined || last.kid !== undefined) {
        throw new ReceiverError('malformed_signature', { detail: 'kid= must follow its v1=' });
      }
      last.kid = value;
    }
    // Other names (a future v2=) are ignored so senders can add schemes without breaking us.
  }
  if (timestamp === undefined) throw new ReceiverError('malformed_signature', { detail: 'no t=' });
  if (entries.length === 0) throw new ReceiverError('malformed_signature', { detail: 'no v1=' });
  return { timestamp, entries };
}
