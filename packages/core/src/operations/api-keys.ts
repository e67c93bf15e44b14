// Tenant API keys: recorded (sha256 and a short prefix, never the key), listed, revoked; every key write goes through here.
import { fail } from '../errors.ts';
import { newId } from '../ids.ts';
import type { ApiKeyRecord } from '../store/store.ts';
import type { EngineParts } from './parts.ts';

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
  async create(tenantId: string, input: { name?: string; hash: string; prefix: string }): Promise<ApiKeyRecord> {
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
    await this.#p.store.createApiKey(record);
    return record;
  }

  list(tenantId: string): Promise<ApiKeyRecord[]> {
    return this.#p.store.listApiKeys(tenantId);
  }

  /**
   * Records that a key authenticated a request: `last_used_at`, to the minute (at most one write a minute per key
   * and process; the store skips the row when another process wrote it within the minute).
   */
  async touch(id: string): Promise<void> {
    await this.#p.store.touchApiKey(id, this.#p.clock.now(), LAST_USED_GRANULARITY_MS);
  }

  /** 404 `api_key_not_found` when the tenant has no such key. */
  async revoke(tenantId: string, id: string): Promise<void> {
    if (!(await this.#p.store.revokeApiKey(tenantId, id, this.#p.clock.now()))) throw fail('api_key_not_found');
    this.#onRevoke();
  }
}
