// Hookline's Prometheus metrics: attempts by outcome, attempt duration, accept-to-success latency, queue depth, breakers.
import type { DispatchObserver, Store } from '@hookline/core';
import { Counter, Histogram, renderGauge } from './prometheus.ts';

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600, 14400, 86400];
/** Scrapes come every few seconds; store counts are reused this long. */
const CACHE_MS = 1000;
const BREAKER_CACHE_MS = 10_000;

export class ServerMetrics {
  readonly attempts = new Counter('hookline_attempts_total', 'Delivery attempts by outcome (success, delivery_failure, client_error) and trigger.');
  /** One attempt's HTTP request, from send to response (or failure). */
  readonly attemptDuration = new Histogram('hookline_attempt_duration_seconds', 'Duration of one delivery attempt (the HTTP request).', LATENCY_BUCKETS);
  /** From the event's acceptance to the end of the attempt that succeeded: what the receiver experiences. */
  readonly deliveryLatency = new Histogram('hookline_delivery_latency_seconds', 'Time from accepting an event to the end of its delivery\'s successful attempt.', LATENCY_BUCKETS);
  readonly ended = new Counter('hookline_deliveries_ended_without_attempt_total', 'Deliveries ended without an attempt (age limit while held, endpoint paused).');
  readonly held = new Counter('hookline_deliveries_held_total', 'Times a due delivery was held by an open circuit breaker.');
  readonly httpRequests = new Counter('hookline_http_requests_total', 'API requests by method, route and status class.');
  #depth: { at: number; values: Record<string, number> } | null = null;
  #breakers: { at: number; open: number; probing: number } | null = null;

  constructor(private readonly store: Store) {}

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

  async #queueDepth(): Promise<Record<string, number>> {
    const now = Date.now();
    if (this.#depth && now - this.#depth.at < CACHE_MS) return this.#depth.values;
    const values = await this.store.countByStatus();
    this.#depth = { at: now, values };
    return values;
  }

  /** Open and probing breakers over every tenant; scanned at most every 10 s. */
  async #breakerStates(): Promise<{ open: number; probing: number }> {
    const now = Date.now();
    if (this.#breakers && now - this.#breakers.at < BREAKER_CACHE_MS) return this.#breakers;
    let open = 0;
    let probing = 0;
    let cursor: string | null = null;
    do {
      const page = await this.store.listTenants(cursor, 500);
      for (const t of page.items) {
        for (const b of await this.store.listBreakers(t.id)) {
          if (b.state === 'open') open++;
          else if (b.state === 'probing') probing++;
        }
      }
      cursor = page.nextCursor;
    } while (cursor);
    this.#breakers = { at: now, open, probing };
    return this.#breakers;
  }

  async render(): Promise<string> {
    const depth = await this.#queueDepth();
    const breakers = await this.#breakerStates();
    return [
      this.attempts.render(),
      this.attemptDuration.render(),
      this.deliveryLatency.render(),
      this.held.render(),
      this.ended.render(),
      this.httpRequests.render(),
      renderGauge('hookline_queue_depth', 'Deliveries by status (cached about 1 s).', Object.entries(depth).map(([status, value]) => ({ labels: { status }, value }))),
      renderGauge('hookline_breaker_open', 'Circuit breakers currently open (state=open) or probing (state=probing).', [
        { labels: { state: 'open' }, value: breakers.open },
        { labels: { state: 'probing' }, value: breakers.probing },
      ]),
    ].join('');
  }
}
