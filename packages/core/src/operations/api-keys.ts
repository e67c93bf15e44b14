// Tenant API keys: recorded (sha256 and a short prefix, never the key), listed, revoked; every key write goes through here.
import type { Actor } from '../audit/audit-types.ts';
import { fail } from '../errors.ts';
import { newId } from '../ids.ts';
import type { ApiKeyRecord } from '../store/store.ts';
import { audited } from './audit.ts';
import type { EngineParts } from './engine-parts.ts';

/** How fresh `last_used_at` is kept: a key used all day writes its row about once a minute. */
export const LAST_USED_GRANULARITY_MS = 60_000;

export class ApiKeyOperations {
  readonly #p: EngineParts;
  readonly #onRevoke: () => void;

  /** `onRevoke` runs after a key is revoked: whatever remembers credentials forgets them. */
  constructor(parts: EngineParts, onRevoke: () => void) {
    this.#p = parts;
    this.#onRevoke = onRevoke;
  }

  /** Records a key the caller generated; the plaintext never reaches the engine. */
  async create(
    tenantId: string,
    input: { name?: string; hash: string; prefix: string },
    actor?: Actor,
  ): Promise<ApiKeyRecord> {
    const now = this.#p.clock.now();
    const record: ApiKeyRecord = {
      id: newId('key', now),
      tenantId,
      name: input.name ?? '',
      prefix: input.prefix,
      hash: input.hash,
      createdAt: now,
      lastUsedAt: null,
      revokedAt: null,
    };
    const target = { type: 'api_key' as const, id: record.id, tenantId };
    await audited(this.#p, actor, { action: 'api_key.create', target }, 'createApiKey', record);
    return record;
  }

  list(tenantId: string): Promise<ApiKeyRecord[]> {
    return this.#p.store.catalog.listApiKeys(tenantId);
  }

  /**
   * Records that a key authenticated a request: `last_used_at`, to the minute (at most one write a minute per key
   * and process; the store skips the row when another process wrote it within the minute).
   */
  async touch(id: string): Promise<void> {
    await this.#p.store.catalog.touchApiKey(id, this.#p.clock.now(), LAST_USED_GRANULARITY_MS);
  }

  /** 404 `api_key_not_found` when the tenant has no such key. */
  async revoke(tenantId: string, id: string, actor?: Actor): Promise<void> {
    const target = { type: 'api_key' as const, id, tenantId };
    const now = this.#p.clock.now();
    if (!(await audited(this.#p, actor, { action: 'api_key.revoke', target }, 'revokeApiKey', tenantId, id, now)))
      throw fail('api_key_not_found');
    this.#onRevoke();
  }
}
