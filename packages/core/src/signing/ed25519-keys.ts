// Ed25519 signing keys of the `standard` scheme's v1a signatures (docs/rules.md#signing-ed25519): whsk_/whpk_ text, key objects.
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';

export const SECRET_KEY_PREFIX = 'whsk_';
export const PUBLIC_KEY_PREFIX = 'whpk_';

/** PKCS#8 DER of an Ed25519 private key is this fixed prefix followed by the 32-byte seed (RFC 8410). */
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const MAX_CACHED_KEYS = 1024;
const privateKeys = new Map<string, KeyObject>();

/** Is this secret an Ed25519 secret key (`whsk_…`) rather than an HMAC secret? */
export function isEd25519Secret(secret: string): boolean {
  return secret.startsWith(SECRET_KEY_PREFIX);
}

function decodeSecretKey(secret: string): KeyObject {
  const encoded = secret.slice(SECRET_KEY_PREFIX.length);
  if (!BASE64.test(encoded)) throw new Error('ed25519 secret key is not valid base64 after the whsk_ prefix');
  const bytes = Buffer.from(encoded, 'base64');
  // 64 bytes is seed || public key (libsodium's layout, as Standard Webhooks senders store it); 32 is the seed alone.
  if (bytes.length !== 64 && bytes.length !== 32)
    throw new Error(`ed25519 secret key must be 32 or 64 bytes, got ${bytes.length}`);
  const key = createPrivateKey({
    key: Buffer.concat([PKCS8_PREFIX, bytes.subarray(0, 32)]),
    format: 'der',
    type: 'pkcs8',
  });
  if (bytes.length === 64 && !rawPublicKey(key).equals(bytes.subarray(32))) {
    throw new Error('ed25519 secret key: its last 32 bytes are not the public key of its seed');
  }
  return key;
}

function rawPublicKey(privateKey: KeyObject): Buffer {
  return Buffer.from(createPublicKey(privateKey).export({ format: 'jwk' }).x as string, 'base64url');
}

/** The private key object of a `whsk_` secret; decoded once, then cached (the same few keys sign every attempt). */
export function ed25519PrivateKey(secret: string): KeyObject {
  const hit = privateKeys.get(secret);
  if (hit !== undefined) return hit;
  const key = decodeSecretKey(secret);
  if (privateKeys.size >= MAX_CACHED_KEYS) privateKeys.delete(privateKeys.keys().next().value as string);
  privateKeys.set(secret, key);
  return key;
}

/** A new key pair's secret key: `whsk_` + base64(seed || public key), 64 bytes. */
export function generateEd25519Secret(): string {
  const { privateKey } = generateKeyPairSync('ed25519');
  const jwk = privateKey.export({ format: 'jwk' });
  const bytes = Buffer.concat([Buffer.from(jwk.d as string, 'base64url'), Buffer.from(jwk.x as string, 'base64url')]);
  return SECRET_KEY_PREFIX + bytes.toString('base64');
}

/**
 * The public key receivers verify with: `whpk_` + base64 of its 32 raw bytes.
 *
 * @example
 * publicKeyOf(generateEd25519Secret()) // 'whpk_…'
 */
export function publicKeyOf(secret: string): string {
  return PUBLIC_KEY_PREFIX + rawPublicKey(ed25519PrivateKey(secret)).toString('base64');
}
