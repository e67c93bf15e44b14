// Background upkeep for the worker role: the health sweep, retention and certificate-expiry notices, on one interval timer.
import type { Clock } from '../clock.ts';
import type { Logger } from '../logger.ts';
import type { PolicyRegistry } from '../policy/registry.ts';
import type { HealthTransition, Store } from '../store/store.ts';
import { noticeExpiringCertificates } from './certificate-expiry.ts';
import { sweepHealth } from './health-sweep.ts';
import { type PurgeCounts, purgeExpired, type RetentionOptions } from './retention.ts';

export interface MaintenanceOptions {
  /** The health sweep's part (breakers), retention's (retention, audit) and the certificates' (egress). */
  store: Pick<Store, 'breakers' | 'retention' | 'audit' | 'egress'>;
  clock: Clock;
  policies: PolicyRegistry;
  logger: Logger;
  /** Health transitions the sweep made (the engine hands them to observers for notifications). */
  onHealth?: (transitions: HealthTransition[]) => void;
  /** Real-time interval between runs (default 60 s). */
  intervalMs?: number;
  retention?: Partial<RetentionOptions>;
}

export interface MaintenanceResult {
  health: HealthTransition[];
  purged: PurgeCounts;
  /** Certificate-expiry notices written (docs/rules.md#client-certificate). */
  certificateNotices: number;
}

export class Maintenance {
  readonly #o: MaintenanceOptions;
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<MaintenanceResult> | null = null;

  constructor(o: MaintenanceOptions) {
    this.#o = o;
  }

  /** One pass at `now` (virtual-clock tests call this directly). Concurrent calls share the pass in flight. */
  runOnce(now = this.#o.clock.now()): Promise<MaintenanceResult> {
    if (this.#running) return this.#running;
    this.#running = this.#pass(now).finally(() => {
      this.#running = null;
    });
    return this.#running;
  }

  async #pass(now: number): Promise<MaintenanceResult> {
    const health = await sweepHealth(this.#o.store.breakers, this.#o.policies, now);
    if (health.length) this.#o.onHealth?.(health);
    const purged = await purgeExpired(this.#o.store, now, this.#o.retention);
    const certificateNotices = await noticeExpiringCertificates(this.#o.store.egress, now);
    if (health.length || purged.deliveries || purged.events || certificateNotices) {
      this.#o.logger.log('info', 'maintenance', {
        paused: health.length,
        purged_deliveries: purged.deliveries,
        purged_events: purged.events,
        certificate_notices: certificateNotices,
      });
    }
    return { health, purged, certificateNotices };
  }

  start(): void {
    if (this.#timer) return;
    const tick = () => {
      this.runOnce().catch((err) =>
        this.#o.logger.log('error', 'maintenance failed', { error: (err as Error).message }),
      );
    };
    this.#timer = setInterval(tick, this.#o.intervalMs ?? 60_000);
    this.#timer.unref();
  }

  /** Stops the timer and waits for a pass in flight. */
  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.#running?.catch(() => {});
  }
}
