// Purges deliveries (attempts cascade), events and the per-minute counters past their retention in small batches
// (docs/rules.md#retention: 30 days),
// sent notifications after 7 days (docs/rules.md#notifications), console portal links once expired, and audit entries
// as old as purged events (docs/audit.md#retention: behind the chain's checkpoint).
import { DEFAULTS } from '../defaults.ts';
import { MAX_BREAKER_WINDOW_MS } from '../policy/registry.ts';
import type { Store } from '../store/store.ts';

export interface RetentionOptions {
  /** Terminal deliveries last touched longer ago than this are deleted, attempts included. */
  deliveriesMs: number;
  /** Events older than this with no deliveries left are deleted. Default: deliveriesMs. */
  eventsMs?: number;
  /** Sent and abandoned notifications (docs/rules.md#notifications) last touched longer ago than this are deleted. */
  outboxMs: number;
  /** Rows per statement: short transactions, so the dispatcher's commits never wait long. */
  batch: number;
  /** Upper bound on batches per run, so one run cannot monopolise the store after a long outage. */
  maxBatches: number;
}

export const DEFAULT_RETENTION: Readonly<RetentionOptions> = DEFAULTS.retention;

/** Breaker window rows older than the longest window a policy may have cannot count in any window. */
const BREAKER_WINDOW_RETENTION_MS = MAX_BREAKER_WINDOW_MS;

export interface PurgeCounts {
  deliveries: number;
  events: number;
  /** Per-minute counter rows (docs/rules.md#stats-counters), kept as long as deliveries. */
  deliveryMinutes: number;
  tenantUsage: number;
  /** Breaker window rows (one per scope and delivery). */
  breakerWindow: number;
  /** Sent and abandoned outbox rows. */
  outbox: number;
  /** Console portal links past their expiry (single use, 15 minutes: nothing can use them). */
  portalLinks: number;
  /** Audit log entries older than the events' retention. */
  audit: number;
  /** Idempotency keys past their 12 hours (docs/svix-compatibility.md#idempotency). */
  idempotencyKeys: number;
}

/** One retention pass at `now`; yields to the event loop between batches. */
export async function purgeExpired(
  store: Pick<Store, 'retention' | 'audit'>,
  now: number,
  options: Partial<RetentionOptions> = {},
): Promise<PurgeCounts> {
  const o = { ...DEFAULT_RETENTION, ...options };
  const counts: PurgeCounts = {
    deliveries: 0,
    events: 0,
    deliveryMinutes: 0,
    tenantUsage: 0,
    breakerWindow: 0,
    outbox: 0,
    portalLinks: 0,
    audit: 0,
    idempotencyKeys: 0,
  };
  counts.deliveries = await inBatches(o, (batch) => store.retention.purgeDeliveries(now - o.deliveriesMs, batch));
  counts.events = await inBatches(o, (batch) =>
    store.retention.purgeEvents(now - (o.eventsMs ?? o.deliveriesMs), batch),
  );
  counts.deliveryMinutes = await inBatches(o, (batch) =>
    store.retention.purgeDeliveryMinutes(now - o.deliveriesMs, batch),
  );
  // A day's usage row is kept as long as deliveries are, counted from the end of that UTC day.
  counts.tenantUsage = await store.retention.purgeTenantUsage(now - o.deliveriesMs - 86_400_000);
  counts.breakerWindow = await store.retention.purgeBreakerWindow(now - BREAKER_WINDOW_RETENTION_MS);
  counts.outbox = await store.retention.purgeOutbox(now - o.outboxMs);
  counts.portalLinks = await store.retention.purgePortalLinks(now);
  counts.audit = await inBatches(o, (batch) => store.audit.purgeAudit(now - (o.eventsMs ?? o.deliveriesMs), batch));
  counts.idempotencyKeys = await store.retention.purgeIdempotencyKeys(now);
  return counts;
}

async function inBatches(o: RetentionOptions, purge: (batch: number) => Promise<number>): Promise<number> {
  let total = 0;
  for (let i = 0; i < o.maxBatches; i++) {
    const n = await purge(o.batch);
    total += n;
    if (n < o.batch) break;
    await new Promise((r) => setImmediate(r));
  }
  return total;
}
