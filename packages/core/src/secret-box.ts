// Encrypts signing secrets at rest with the master key (AES-256-GCM), so a copied database leaks no secret.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 'v1:';
const IV_BYTES = 12; // GCM's native nonce size; random per seal (2^32 seals per key stay far below collision risk)
const TAG_BYTES = 16;

export interface SecretBox {
  /** `v1:<base64 of iv|tag|ciphertext>`. `aad` binds the value to its owner (e.g. the endpoint id): it cannot be moved to another row. */
  seal(plaintext: string, aad?: string): string;
  /** Throws when the key, the aad or any byte is wrong; never returns garbage. */
  open(sealed: string, aad?: string): string;
}

/** Accepts the 32 key bytes, or them encoded as 64 hex characters or base64. */
export function parseMasterKey(masterKey: Buffer | string): Buffer {
  let key: Buffer;
  if (Buffer.isBuffer(masterKey)) key = masterKey;
  else if (/^[0-9a-fA-F]{64}$/.test(masterKey)) key = Buffer.from(masterKey, 'hex');
  else if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(masterKey)) key = Buffer.from(masterKey, 'base64');
  else throw new Error('master key must be 32 bytes given as base64 or 64 hex characters');
  if (key.length !== 32) throw new Error(`master key must be 32 bytes, got ${key.length}`);
  return key;
}

export function createSecretBox(masterKey: Buffer | string): SecretBox {
  // A private copy: a caller zeroing or reusing its buffer must not change the key under us.
  const key = Buffer.from(parseMasterKey(masterKey));
  return {
    seal(plaintext, aad) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      if (aad !== undefined) cipher.setAAD(Buffer.from(aad, 'utf8'));
      const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return VERSION + Buffer.concat([iv, cipher.getAuthTag(), ct]).toString('base64');
    },
    open(sealed, aad) {
      if (typeof sealed !== 'string' || !sealed.startsWith(VERSION))
        throw new Error('secret box: not a v1 sealed value');
      const raw = Buffer.from(sealed.slice(VERSION.length), 'base64');
      if (raw.length < IV_BYTES + TAG_BYTES) throw new Error('secret box: sealed value is truncated');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      if (aad !== undefined) decipher.setAAD(Buffer.from(aad, 'utf8'));
      try {
        return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
      } catch (cause) {
        throw new Error('secret box: cannot open sealed value (wrong master key, wrong aad, or tampered data)', {
          cause,
        });
      }
    },
  };
}

/** A new random master key, base64, for `HOOKLINE_MASTER_KEY`. */
export function generateMasterKey(): string {
  return randomBytes(32).toString('base64');
}
