// Turns the keys a user configures into HMAC key bytes (both schemes) and Ed25519 key objects (v1a), once.
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';

/**
 * A secret as users hold it: a string (`whsec_<base64>` or, for the hookline scheme, raw
 * text), raw key bytes, or either with the key id (`kid`) the sender puts in its signature.
 * An Ed25519 public key `whpk_<base64>` verifies Standard Webhooks `v1a` signatures (a receiver needs no
 * shared secret then); a secret key `whsk_<base64>` signs them (for tests and tools).
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
 * toSigningKeys([{ kid: 'sec_01JGZ6Q4W8N5T2R7Y3K9M1B0XC', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }])
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

/** An Ed25519 key of Standard Webhooks' asymmetric `v1a` signatures. */
export interface Ed25519Key {
  readonly kid: string | undefined;
  readonly publicKey: KeyObject;
  /** Present only for a `whsk_` secret key: it can sign. */
  readonly privateKey: KeyObject | undefined;
}

/** Every configured key, split by algorithm: HMAC secrets and Ed25519 keys never stand in for each other. */
export interface KeySet {
  readonly hmac: readonly SigningKey[];
  readonly ed25519: readonly Ed25519Key[];
}

const WHPK = 'whpk_';
const WHSK = 'whsk_';
// RFC 8410 DER layouts: a fixed prefix, then the 32 raw key bytes (public key, or private seed).
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

function keyBytes(text: string, prefix: string, lengths: readonly number[]): Buffer {
  const encoded = text.slice(prefix.length);
  const bytes = BASE64.test(encoded) ? Buffer.from(encoded, 'base64') : Buffer.alloc(0);
  if (!lengths.includes(bytes.length)) {
    throw new TypeError(`a ${prefix} key must be base64 of ${lengths.join(' or ')} bytes`);
  }
  return bytes;
}

function toEd25519Key(kid: string | undefined, text: string): Ed25519Key {
  if (text.startsWith(WHPK)) {
    const publicKey = createPublicKey({
      key: Buffer.concat([SPKI_PREFIX, keyBytes(text, WHPK, [32])]),
      format: 'der',
      type: 'spki',
    });
    return Object.freeze({ kid, publicKey, privateKey: undefined });
  }
  // whsk_: base64 of seed || public key (64 bytes, as Standard Webhooks senders keep it) or of the seed alone.
  const bytes = keyBytes(text, WHSK, [64, 32]);
  const privateKey = createPrivateKey({
    key: Buffer.concat([PKCS8_PREFIX, bytes.subarray(0, 32)]),
    format: 'der',
    type: 'pkcs8',
  });
  const publicKey = createPublicKey(privateKey);
  if (
    bytes.length === 64 &&
    !publicKey.export({ format: 'der', type: 'spki' }).subarray(SPKI_PREFIX.length).equals(bytes.subarray(32))
  ) {
    throw new TypeError("a whsk_ key's last 32 bytes must be the public key of its seed");
  }
  return Object.freeze({ kid, publicKey, privateKey });
}

/**
 * Decodes every configured key once: `whpk_`/`whsk_` strings become Ed25519 keys, everything else an HMAC secret.
 *
 * @example
 * toKeySet([{ kid: 'k2', secret: 'whpk_…' }, 'whsec_…']) // { hmac: [1 key], ed25519: [1 key] }
 */
export function toKeySet(secrets: SecretInput | readonly SecretInput[]): KeySet {
  const list = Array.isArray(secrets) ? secrets : [secrets as SecretInput];
  if (list.length === 0) throw new TypeError('at least one secret is required');
  const hmac: SecretInput[] = [];
  const ed25519: Ed25519Key[] = [];
  for (const input of list) {
    const { kid, secret } =
      typeof input === 'string' || input instanceof Uint8Array ? { kid: undefined, secret: input } : input;
    if (typeof secret === 'string' && (secret.startsWith(WHPK) || secret.startsWith(WHSK)))
      ed25519.push(toEd25519Key(kid, secret));
    else hmac.push(input);
  }
  return Object.freeze({ hmac: hmac.length > 0 ? toSigningKeys(hmac) : [], ed25519 });
}
