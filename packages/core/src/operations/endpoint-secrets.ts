// An endpoint's signing secrets: the live ones, decrypted, and rotation with an overlap (docs/rules.md#secret-rotation).
import { fail } from '../errors.ts';
import { newId } from '../ids.ts';
import { generateSecret } from '../signing/signing-keys.ts';
import { newestFirst } from '../dispatch/secret-cache.ts';
import { DEFAULTS } from '../defaults.ts';
import type { EngineParts } from './parts.ts';

export interface LiveSecret {
  kid: string;
  secret: string;
  createdAt: number;
  expiresAt: number | null;
}

export class EndpointSecretOperations {
  readonly #p: EngineParts;

  constructor(parts: EngineParts) {
    this.#p = parts;
  }

  async #endpoint(tenantId: string, id: string): Promise<void> {
    if (!(await this.#p.store.getEndpoint(tenantId, id))) throw fail('endpoint_not_found');
  }

  /** Live secrets, newest first, with their retirement times. */
  async list(tenantId: string, id: string): Promise<LiveSecret[]> {
    const p = this.#p;
    await this.#endpoint(tenantId, id);
    const now = p.clock.now();
    return (await p.store.listSecrets(id))
      .filter((s) => s.expiresAt === null || s.expiresAt > now)
      .sort(newestFirst)
      .map((s) => ({ kid: s.kid, secret: p.box.open(s.sealed, id), createdAt: s.createdAt, expiresAt: s.expiresAt }));
  }

  /** New secret with a new kid; the old ones stay live for the overlap (default 24 h), then retire at that fixed time. */
  async rotate(tenantId: string, id: string, overlapMs?: number): Promise<LiveSecret[]> {
    const p = this.#p;
    await this.#endpoint(tenantId, id);
    const now = p.clock.now();
    const overlap = overlapMs ?? p.settings.rotationOverlapMs ?? DEFAULTS.rotationOverlapMs;
    const secret = generateSecret();
    await p.store.rotateSecret(id, { kid: newId('sec', now), endpointId: id, sealed: p.box.seal(secret, id), createdAt: now, expiresAt: null }, now + overlap, now);
    return this.list(tenantId, id);
  }
}
