// The rows and steps the ordered-delivery conformance suite (ordering-conformance.ts) builds its cases from: endpoints
// ordered or not, keyed events, attempts and their records, and a claim/succeed/fail per worker.
import type { TestContext } from 'node:test';
import type { Attempt, Endpoint, OrderingOnFailure } from '../src/domain.ts';
import type { AttemptRecord, NewEvent, ReplayRow, Store } from '../src/store/store.ts';

/** A fresh, empty, migrated store per call, and how to dispose of it (the shape store-conformance's factories have). */
export type StoreFactory = () => Promise<{ store: Store; cleanup(): Promise<void> }>;

export const T0 = Date.UTC(2026, 0, 5, 12);
export const TEN = 'ten_order';

const endpoint = (id: string, over: Partial<Endpoint> = {}): Endpoint => ({
  id,
  tenantId: TEN,
  url: `https://example.test/${id}`,
  description: '',
  eventTypes: [],
  policy: 'standard',
  scheme: 'hookline',
  timeoutMs: null,
  maxConcurrency: 100,
  ordering: 'key',
  orderingOnFailure: 'continue',
  status: 'active',
  pauseReason: null,
  failingSince: null,
  consecutiveFailedEvents: 0,
  lastSuccessAt: null,
  createdAt: T0,
  updatedAt: T0,
  ...over,
});

let serial = 0;
/** One event to `endpoints`; a keyed delivery for the ordered ones (as ingest builds it). */
export function event(
  n: number,
  key: string | null,
  endpoints: Array<{ id: string; ordered: boolean }>,
  at = T0,
): NewEvent {
  const id = `evt_${String(n).padStart(6, '0')}_${serial++}`;
  return {
    event: {
      id,
      tenantId: TEN,
      eventId: `e-${n}`,
      type: 'thing.happened',
      version: '1',
      occurredAt: new Date(at).toISOString(),
      body: Buffer.from(`{"n":${n}}`),
      isMoney: false,
      orderingKey: key,
      createdAt: at,
    },
    bodyHash: `h-${n}`,
    deliveries: endpoints.map((ep) => ({
      id: `dlv_${String(n).padStart(6, '0')}_${ep.id}`,
      endpointId: ep.id,
      status: 'pending' as const,
      nextAttemptAt: at,
      ...(key !== null && ep.ordered ? { orderingKey: key } : {}),
    })),
  };
}

export function attempt(
  d: { id: string; endpointId: string },
  n: number,
  at: number,
  outcome: Attempt['outcome'],
): Attempt {
  return {
    id: `att_${d.id}_${n}_${at}`,
    deliveryId: d.id,
    tenantId: TEN,
    environment: 'live',
    endpointId: d.endpointId,
    n,
    trigger: 'scheduled',
    ladder: 'fast',
    startedAt: at,
    durationMs: 5,
    requestHeaders: {},
    responseStatus: outcome === 'success' ? 200 : 500,
    responseHeaders: {},
    responseExcerpt: '',
    errorClass: outcome === 'success' ? null : 'status',
    errorMessage: null,
    outcome,
  };
}

export function finish(a: Attempt, worker: string, next: AttemptRecord['next']): AttemptRecord {
  return {
    attempt: a,
    workerId: worker,
    next,
    progress: { fastFailures: 0, slowFailures: 0, slowStartedAt: null, firstAttemptAt: a.startedAt },
    replayId: null,
    health: null,
    breakerScope: null,
  };
}

export const replayRow = (id: string, endpointId: string): ReplayRow => ({
  id,
  tenantId: TEN,
  endpointId,
  kind: 'single',
  sinceMs: null,
  untilMs: null,
  includeSkipped: false,
  selected: 1,
  attempted: 0,
  succeeded: 0,
  failed: 0,
  createdAt: T0,
});

export async function setup(
  factory: StoreFactory,
  t: TestContext,
  onFailure: OrderingOnFailure = 'continue',
): Promise<Store> {
  const { store, cleanup } = await factory();
  t.after(cleanup);
  await store.catalog.createTenant({
    id: TEN,
    name: 'order',
    ownerEmails: [],
    operationsEndpointId: null,
    notifyEmail: false,
    createdAt: T0,
    updatedAt: T0,
  });
  await store.catalog.createEndpoint(endpoint('ep_ord', { orderingOnFailure: onFailure }), {
    kid: 'sec_ord',
    endpointId: 'ep_ord',
    sealed: 's',
    createdAt: T0,
    expiresAt: null,
  });
  await store.catalog.createEndpoint(endpoint('ep_free', { ordering: 'none' }), {
    kid: 'sec_free',
    endpointId: 'ep_free',
    sealed: 's',
    createdAt: T0,
    expiresAt: null,
  });
  return store;
}

export const ORD = { id: 'ep_ord', ordered: true };
export const FREE = { id: 'ep_free', ordered: false };

export async function claim(store: Store, worker = 'w1', now = T0 + 10_000): Promise<string[]> {
  const got = await store.queue.claimDue({
    now,
    limit: 100,
    leaseUntil: now + 60_000,
    workerId: worker,
    saturatedEndpoints: [],
  });
  return got.map((c) => c.delivery.id).sort();
}

export async function succeed(
  store: Store,
  id: string,
  endpointId = 'ep_ord',
  worker = 'w1',
  n = 1,
  at = T0 + 2000,
): Promise<void> {
  await store.queue.recordAttempts(
    [finish(attempt({ id, endpointId }, n, at, 'success'), worker, { status: 'succeeded' })],
    at,
  );
}
export async function failFor(store: Store, id: string, n = 1, at = T0 + 2000): Promise<void> {
  await store.queue.recordAttempts(
    [
      finish(attempt({ id, endpointId: 'ep_ord' }, n, at, 'delivery_failure'), 'w1', {
        status: 'failed',
        reason: 'attempts exhausted',
      }),
    ],
    at,
  );
}
