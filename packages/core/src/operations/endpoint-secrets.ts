// An endpoint's signing secrets: the live ones, decrypted, and rotation with an overlap (docs/rules.md#secret-rotation).

import type { Actor } from '../audit/audit-types.ts';
import { DEFAULTS } from '../defaults.ts';
import { newestFirst } from '../dispatch/secret-cache.ts';
import type { Signing } from '../domain.ts';
import { fail } from '../errors.ts';
import { newId } from '../ids.ts';
import { generateEd25519Secret, isEd25519Secret, publicKeyOf } from '../signing/ed25519-keys.ts';
import { generateSecret } from '../signing/signing-keys.ts';
import { audited } from './audit.ts';
import { checkGivenSecret } from './endpoint-input.ts';
import type { EngineParts } from './engine-parts.ts';

/** A live signing key as users may see it: an HMAC secret, or an ed25519 public key (its secret key is never shown). */
export interface LiveSecret {
  kid: string;
  signing: Signing;
  /** The HMAC secret (`whsec_…`); null for an ed25519 key. */
  secret: string | null;
  /** The ed25519 public key (`whpk_…`) receivers verify v1a with; null for an HMAC secret. */
  publicKey: string | null;
  createdAt: number;
  expiresAt: number | null;
}

export class EndpointSecretOperations {
  readonly #p: EngineParts;

  constructor(parts: EngineParts) {
    this.#p = parts;
  }

  async #endpoint(tenantId: string, id: string): Promise<Signing> {
    const ep = await this.#p.store.catalog.getEndpoint(tenantId, id);
    if (!ep) throw fail('endpoint_not_found');
    return ep.signing ?? 'hmac';
  }

  /** Live secrets, newest first, with their retirement times. */
  async list(tenantId: string, id: string): Promise<LiveSecret[]> {
    const p = this.#p;
    await this.#endpoint(tenantId, id);
    const now = p.clock.now();
    return (await p.store.catalog.listSecrets(id))
      .filter((s) => s.expiresAt === null || s.expiresAt > now)
      .sort(newestFirst)
      .map((s) => {
        const plain = p.box.open(s.sealed, id);
        const key = isEd25519Secret(plain)
          ? { signing: 'ed25519' as const, secret: null, publicKey: publicKeyOf(plain) }
          : { signing: 'hmac' as const, secret: plain, publicKey: null };
        return { kid: s.kid, ...key, createdAt: s.createdAt, expiresAt: s.expiresAt };
      });
  }

  /**
   * New secret with a new kid, of the endpoint's signing (an ed25519 endpoint gets a new key pair); the old ones stay
   * live for the overlap (default 24 h), then retire at that fixed time.
   */
  async rotate(tenantId: string, id: string, overlapMs?: number, actor?: Actor, given?: string): Promise<LiveSecret[]> {
    const p = this.#p;
    const signing = await this.#endpoint(tenantId, id);
    const now = p.clock.now();
    const overlap = overlapMs ?? p.settings.rotationOverlapMs ?? DEFAULTS.rotationOverlapMs;
    // `given`: the caller's own whsec_ secret (the Svix-compatible API's rotate `key`), HMAC endpoints only.
    if (given !== undefined && signing !== 'hmac') throw fail('signing_needs_standard_scheme');
    const secret =
      given !== undefined
        ? checkGivenSecret(given)
        : signing === 'ed25519'
          ? generateEd25519Secret()
          : generateSecret();
    const kid = newId('sec', now);
    const what = {
      action: 'endpoint.secret_rotate',
      target: { type: 'endpoint' as const, id, tenantId },
      // The new key's id and when the old ones retire; never the secret (docs/audit.md#redaction).
      details: { new_kid: kid, signing, old_retire_at: now + overlap },
    };
    await audited(
      p,
      actor,
      what,
      'rotateSecret',
      id,
      { kid, endpointId: id, sealed: p.box.seal(secret, id), createdAt: now, expiresAt: null },
      now + overlap,
      now,
    );
    return this.list(tenantId, id);
  }
}
