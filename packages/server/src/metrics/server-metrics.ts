// Hookline's Prometheus metrics on prom-client: attempts by outcome, attempt duration, accept-to-success latency, queue
// depth, breakers, and prom-client's process and event-loop metrics.
import { performance } from 'node:perf_hooks';
import { type DispatchObserver, fail, type Store } from '@hookline/core';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600, 14400, 86400];

/** What scrapes read from the store: non-terminal deliveries per status, breakers not closed. */
interface StoreGauges {
  queued: Record<'pending' | 'delivering' | 'held', number>;
  breakers: { open: number; probing: number };
}

export interface ServerMetricsOptions {
  /** Store gauges are read at most once per this interval, whatever the number of scrapers. Default 5 s. */
  refreshMs?: number;
  /** Milliseconds since some origin (default performance.now); tests drive it. */
  now?: () => number;
}

/** Scrapes this close together share one rendered text: counters at most a second old, never a render per scrape. */
const RENDER_REUSE_MS = 1000;

let processRegistry: Registry | null = null;

/**
 * prom-client's default metrics (CPU, memory, handles, GC, event-loop lag) describe the process, and collecting them
 * installs process-wide observers: one registry per process, shared by every ServerMetrics in it.
 */
function processMetrics(): Registry {
  if (processRegistry === null) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

export class ServerMetrics {
  /** This server's own metrics; a registry per instance, so servers in one process (tests) do not share counts. */
  readonly registry = new Registry();
  readonly attempts = new Counter({
    name: 'hookline_attempts_total',
    help: 'Delivery attempts by outcome (success, delivery_failure, client_error) and trigger.',
    labelNames: ['outcome', 'trigger'],
    registers: [this.registry],
  });
  /** One attempt's HTTP request, from send to response (or failure). */
  readonly attemptDuration = new Histogram({
    name: 'hookline_attempt_duration_seconds',
    help: 'Duration of one delivery attempt (the HTTP request).',
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  /** From the event's acceptance to the end of the attempt that succeeded: what the receiver experiences. */
  readonly deliveryLatency = new Histogram({
    name: 'hookline_delivery_latency_seconds',
    help: "Time from accepting an event to the end of its delivery's successful attempt.",
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  readonly held = new Counter({
    name: 'hookline_deliveries_held_total',
    help: 'Times a due delivery was held by an open circuit breaker.',
    registers: [this.registry],
  });
  readonly ended = new Counter({
    name: 'hookline_deliveries_ended_without_attempt_total',
    help: 'Deliveries ended without an attempt (age limit while held, endpoint paused).',
    labelNames: ['status'],
    registers: [this.registry],
  });
  /** docs/rules.md#adaptive-concurrency: set by this process's dispatcher when an endpoint's learned concurrency changes. */
  readonly effectiveConcurrency = new Gauge({
    name: 'hookline_endpoint_effective_concurrency',
    help: 'Sends this worker allows an endpoint at once, learned from its 429/503 answers and latency (1 … max_concurrency).',
    labelNames: ['endpoint_id'],
    registers: [this.registry],
  });
  /** docs/scaling.md#settings-that-must-match: 1 while another live process on the database has a different value. */
  readonly settingsMismatch = new Gauge({
    name: 'hookline_settings_mismatch',
    help: 'Whether another live process on this database has a different value of this setting (1) or not (0).',
    labelNames: ['setting'],
    registers: [this.registry],
  });
  readonly httpRequests = new Counter({
    name: 'hookline_http_requests_total',
    help: 'API requests by method, route and status class.',
    labelNames: ['method', 'route', 'status'],
    registers: [this.registry],
  });
  /** Set from the shared store read just before each render. */
  readonly #queueDepth = new Gauge({
    name: 'hookline_queue_depth',
    help: 'Deliveries not yet terminal, by status (pending, delivering, held), read at most once per refresh interval.',
    labelNames: ['status'],
    registers: [this.registry],
  });
  readonly #breakerOpen = new Gauge({
    name: 'hookline_breaker_open',
    help: 'Circuit breakers currently open (state=open) or probing (state=probing).',
    labelNames: ['state'],
    registers: [this.registry],
  });
  readonly #refreshMs: number;
  readonly #now: () => number;
  /** The last rendering (or the one in progress) and when it began. */
  #rendered: { at: number; text: Promise<string> } | null = null;
  #gauges: StoreGauges | null = null;
  #readAt = -Infinity;
  #reading: Promise<StoreGauges> | null = null;

  constructor(
    private readonly store: Store,
    options: ServerMetricsOptions = {},
  ) {
    this.#refreshMs = options.refreshMs ?? 5000;
    this.#now = options.now ?? (() => performance.now());
    processMetrics();
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
    concurrency: (e) => this.effectiveConcurrency.set({ endpoint_id: e.endpointId }, e.effective),
  };

  /** Sets `hookline_settings_mismatch` to 1 for each setting in `differing`, 0 for the rest of `compared`. */
  showSettingsMismatches(compared: readonly string[], differing: readonly string[]): void {
    for (const setting of new Set([...compared, ...differing]))
      this.settingsMismatch.set({ setting }, differing.includes(setting) ? 1 : 0);
  }

  /**
   * One shared, rate-limited read of the store gauges: at most one read per refresh interval and at most one at a
   * time, however many scrapers there are. Once a value exists a scrape never waits on the store: a stale value is
   * served while the next read runs. Only the first scrape waits (and sees a store error).
   */
  async #storeGauges(): Promise<StoreGauges> {
    const fresh = this.#now() - this.#readAt < this.#refreshMs;
    if (this.#gauges !== null && (fresh || this.#reading !== null)) return this.#gauges;
    if (this.#reading !== null) return this.#reading;
    // The first read failed moments ago: answer 503 rather than ask the store again within the interval.
    if (fresh) throw fail('storage_unavailable');
    this.#reading = (async () => {
      try {
        const [queued, breakers] = [
          await this.store.reporting.countQueued(),
          await this.store.reporting.countBreakers(),
        ];
        this.#gauges = { queued, breakers };
        return this.#gauges;
      } finally {
        // A failed read is not retried before the interval either.
        this.#readAt = this.#now();
        this.#reading = null;
      }
    })();
    if (this.#gauges === null) return this.#reading;
    this.#reading.catch(() => {});
    return this.#gauges;
  }

  /**
   * The exposition text (format 0.0.4): this server's metrics, then the process's. Scrapes within a second of a
   * rendering (or while it runs) get the same text: 32 scrapers looping on /metrics cost one rendering a second,
   * not one each, so they cannot crowd out the API on the event loop. A failed rendering is not reused.
   */
  render(): Promise<string> {
    const now = this.#now();
    const reuseMs = Math.min(RENDER_REUSE_MS, this.#refreshMs);
    if (this.#rendered !== null && now - this.#rendered.at < reuseMs) return this.#rendered.text;
    const rendered = { at: now, text: this.#renderNow() };
    this.#rendered = rendered;
    rendered.text.catch(() => {
      if (this.#rendered === rendered) this.#rendered = null;
    });
    return rendered.text;
  }

  async #renderNow(): Promise<string> {
    const { queued, breakers } = await this.#storeGauges();
    for (const [status, value] of Object.entries(queued)) this.#queueDepth.set({ status }, value);
    this.#breakerOpen.set({ state: 'open' }, breakers.open);
    this.#breakerOpen.set({ state: 'probing' }, breakers.probing);
    return (await this.registry.metrics()) + (await processMetrics().metrics());
  }
}
