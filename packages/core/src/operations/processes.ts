// The running processes sharing this store and the settings each published (docs/scaling.md#settings-that-must-match).
import { DEFAULTS } from '../defaults.ts';
import type { ProcessRecord } from '../store/store.ts';
import type { EngineParts } from './engine-parts.ts';

export class ProcessOperations {
  readonly #p: EngineParts;

  constructor(parts: EngineParts) {
    this.#p = parts;
  }

  /**
   * Publishes this process's row; `soleOwner` (a SQLite file, which one process owns) first forgets every other row,
   * since any other is a predecessor that was killed before it could remove its own.
   */
  async publish(
    row: Omit<ProcessRecord, 'startedAt' | 'seenAt'>,
    options: { soleOwner?: boolean } = {},
  ): Promise<ProcessRecord> {
    const now = this.#p.clock.now();
    const record: ProcessRecord = { ...row, startedAt: now, seenAt: now };
    if (options.soleOwner) await this.#p.store.processes.removeProcess(row.processId, { others: true });
    await this.#p.store.processes.putProcess(record);
    return record;
  }

  /** The heartbeat; publishes the row again when it expired meanwhile (a process paused or cut off for a minute). */
  async heartbeat(record: ProcessRecord): Promise<void> {
    const now = this.#p.clock.now();
    if (!(await this.#p.store.processes.touchProcess(record.processId, now)))
      await this.#p.store.processes.putProcess({ ...record, seenAt: now });
  }

  /** Every process seen within the stale window, this one included; older rows are forgotten. */
  live(): Promise<ProcessRecord[]> {
    return this.#p.store.processes.liveProcesses(this.#p.clock.now() - DEFAULTS.processes.staleAfterMs);
  }

  /** A stopping process (or one that refused to start) takes its row with it. */
  leave(processId: string): Promise<void> {
    return this.#p.store.processes.removeProcess(processId);
  }
}
