// Records when each API key was last used (`last_used_at`, to the minute) without a store write per request: this
// process asks the engine at most once a minute per key, and never makes the request wait for it.
import { type Clock, LAST_USED_GRANULARITY_MS, type Logger } from '@hookline/core';

export class KeyUsage {
  /** Key id → when this process last recorded it (the engine's clock). Bounded: cleared when it grows past `max`. */
  readonly #recorded = new Map<string, number>();

  constructor(
    private readonly record: (keyId: string) => Promise<void>,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly max = 10_000,
  ) {}

  /** Called once a key has authenticated a request. */
  used(keyId: string): void {
    const now = this.clock.now();
    const last = this.#recorded.get(keyId);
    if (last !== undefined && now - last < LAST_USED_GRANULARITY_MS) return;
    if (this.#recorded.size >= this.max) this.#recorded.clear();
    this.#recorded.set(keyId, now);
    // Losing one such write costs only a minute of freshness; the request it came with is not failed for it.
    this.record(keyId).catch((err: Error) => {
      this.#recorded.delete(keyId);
      this.logger.log('warn', "recording an API key's last use failed", { key_id: keyId, error: err.message });
    });
  }
}
