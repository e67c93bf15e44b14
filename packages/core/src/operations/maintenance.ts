// Keeping the store healthy (docs/rules.md#health-pause, docs/rules.md#retention) and telling whether it can take writes.
import type { EngineParts } from './engine-parts.ts';

export class MaintenanceOperations {
  readonly #p: EngineParts;

  constructor(parts: EngineParts) {
    this.#p = parts;
  }

  /** One health-sweep, retention and certificate-expiry pass at `now` (virtual-clock tests, simulate; the worker role runs it on a timer). */
  run(now = this.#p.clock.now()) {
    return this.#p.maintenance.runOnce(now);
  }

  /**
   * Null when the store answers and can take writes; else why not (disk full, failing writes or checkpoints, a fatal
   * store failure, no answer).
   */
  async notReadyReason(): Promise<string | null> {
    const store = this.#p.store;
    const problem = await store.problem?.().catch((err: Error) => ({ fatal: false, reason: err.message }));
    const ok = !problem && (await store.ping().catch(() => false));
    return ok ? null : (problem?.reason ?? 'the store does not answer');
  }
}
