// Hookline's Prometheus metrics: attempts by outcome, attempt duration, accept-to-success latency, queue depth, breakers.
import { performance } from 'node:perf_hooks';
import { fail, type DispatchObserver, type Store } from '@hookline/core';
import { Counter, Histogram, renderGauge } from './prometheus.ts';

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600, 14400, 86400];

/** What scrapes read from the store: non-terminal deliveries per status, breakers not closed. */
interface StoreGauges {
  queued: Record<'pending' | 'delivering' | 'held', number>;
  breakers: { open: number; probing: number };
}

export interface ServerMetricsOptions {
  /** Store gauges are read at most once per this interval, whatever the number of scrapers. Default 5 s. */
  refreshMs?: number;
}

export class ServerMetrics {
  readonly attempts = new Counter('hookline_attempts_total', 'Delivery attempts by outcome (success, delivery_failure, client_error) and trigger.');
  /** One attempt's HTTP request, from send to response (or failure). */
  readonly attemptDuration = new Histogram('hookline_attempt_duration_seconds', 'Duration of one delivery attempt (the HTTP request).', LATENCY_BUCKETS);
  /** From the event's acceptance to the end of the attempt that succeeded: what the receiver experiences. */
  readonly deliveryLatency = new Histogram('hookline_delivery_latency_seconds', 'Time from accepting an event to the end of its delivery\'s successful attempt.', LATENCY_BUCKETS);
  readonly ended = new Counter('hookline_deliveries_ended_without_attempt_total', 'Deliveries ended without an attempt (age limit while held, endpoint paused).');
  readonly held = new Counter('hookline_deliveries_held_total', 'Times a due delivery was held by an open circuit breaker.');
  readonly httpRequests = new Counter('hookline_http_requests_total', 'API requests by method, route and status class.');
  readonly #refreshMs: number;
  #gauges: StoreGauges | null = null;
  #readAt = -Infinity;
  #reading: Promise<StoreGauges> | null = null;

  constructor(private readonly store: Store, options: ServerMetricsOptions = {}) {
    this.#refreshMs = options.refreshMs ?? 5000;
  }

  readonly observer: DispatchObserver = {
    attempt: (e) => {
      this.attempts.inc({ outcome: e.attempt.outcome, trigger: e.attempt.trigger });
      this.attemptDuration.observe(e.attempt.durationMs / 1000);
      if (e.next.status === 'succeeded') {
        const end = e.attempt.startedAt + e.attempt.durationMs;
        this.deliveryLatency.observe(Math.max(0, end - e.claimed.delivery.createdAt) / 1000);
      }
    },
    held: () => this.held.inc(),
    ended: (_c, status) => this.ended.inc({ status }),
  };

  /**
   * One shared, rate-limited read of the store gauges: at most one read per refresh interval and at most one at a
   * time, however many scrapers there are. Once a value exists a scrape never waits on the store: a stale value is
   * served while the next read runs. Only the first scrape waits (and sees a store error).
   */
  async #storeGauges(): Promise<StoreGauges> {
    const fresh = performance.now() - this.#readAt < this.#refreshMs;
    if (this.#gauges !== null && (fresh || this.#reading !== null)) return this.#gauges;
    if (this.#reading !== null) return this.#reading;
    // The first read failed moments ago: answer 503 rather than ask the store again within the interval.
    if (fresh) throw fail('storage_unavailable');
    this.#reading = (async () => {
      try {
        const [queued, breakers] = [await this.store.countQueued(), await this.store.countBreakers()];
        this.#gauges = { queued, breakers };
        return this.#gauges;
      } finally {
        // A failed read is not retried before the interval either.
        this.#readAt = performance.now();
        this.#reading = null;
      }
    })();
    if (this.#gauges === null) return this.#reading;
    this.#reading.catch(() => {});
    return this.#gauges;
  }

  async render(): Promise<string> {
    const { queued, breakers } = await this.#storeGauges();
    return [
      this.attempts.render(),
      this.attemptDuration.render(),
      this.deliveryLatency.render(),
      this.held.render(),
      this.ended.render(),
      this.httpRequests.render(),
      renderGauge('hookline_queue_depth', 'Deliveries not yet terminal, by status (pending, delivering, held), read at most once per refresh interval.', Object.entries(queued).map(([status, value]) => ({ labels: { status }, value }))),
      renderGauge('hookline_breaker_open', 'Circuit breakers currently open (state=open) or probing (state=probing).', [
        { labels: { state: 'open' }, value: breakers.open },
        { labels: { state: 'probing' }, value: breakers.probing },
      ]),
    ].join('');
  }
}
