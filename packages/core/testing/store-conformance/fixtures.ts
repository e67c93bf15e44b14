// Shared fixtures of the store conformance suite: fixed times, row builders, and the setups several areas start from.
import type { TestContext } from 'node:test';
import { type Attempt, type Endpoint, type EventRecord, NO_TENANT_LIMITS, type Tenant } from '../../src/domain.ts';
import type { AttemptRecord, NewEvent, Store } from '../../src/store/store.ts';
import { DAY, H, MIN, S } from '../time.ts';

/** Registers one check that gets a fresh store from the suite's factory and cleans it up after. */
export type WithStore = (title: string, fn: (store: Store, t: TestContext) => Promise<void>) => void;

export const T0 = Date.UTC(2026, 0, 5, 12);

// The shared time constants, re-exported for the tests that import them from here.
export { DAY, H, MIN, S };

export const tenant = (id: string, at = T0, environment: Tenant['environment'] = 'live'): Tenant => ({
  id,
  name: `Tenant ${id}`,
  environment,
  ownerEmails: ['o@example.test'],
  operationsEndpointId: null,
  limits: { ...NO_TENANT_LIMITS },
  notifyEmail: true,
  uid: null,
  metadata: {},
  payloadFormat: 'envelope',
  appRateLimit: null,
  createdAt: at,
  updatedAt: at,
});

export const endpoint = (id: string, tenantId: string, over: Partial<Endpoint> = {}): Endpoint => ({
  id,
  tenantId,
  url: `https://example.test/${id}`,
  description: '',
  eventTypes: [],
  policy: 'standard',
  scheme: 'hookline',
  timeoutMs: null,
  maxConcurrency: 20,
  ordering: 'none',
  orderingOnFailure: 'continue',
  payloadFilter: null,
  customHeaders: {},
  pausedAt: null,
  signing: 'hmac',
  rateLimitPerS: null,
  effectiveConcurrency: null,
  uid: null,
  metadata: {},
  channels: null,
  status: 'active',
  pauseReason: null,
  failingSince: null,
  consecutiveFailedEvents: 0,
  lastSuccessAt: null,
  createdAt: T0,
  updatedAt: T0,
  ...over,
});

export const secret = (kid: string, endpointId: string, at = T0) => ({
  kid,
  endpointId,
  sealed: `sealed-${kid}`,
  createdAt: at,
  expiresAt: null,
});

export function newEvent(
  tenantId: string,
  n: number,
  endpointIds: string[],
  over: { at?: number; body?: Buffer; hash?: string; eventId?: string; isMoney?: boolean; skipped?: string[] } = {},
): NewEvent {
  const at = over.at ?? T0;
  const id = `evt_${String(n).padStart(6, '0')}`;
  const event: EventRecord = {
    id,
    tenantId,
    eventId: over.eventId ?? `e-${n}`,
    type: 'thing.happened',
    version: '1',
    occurredAt: new Date(at).toISOString(),
    body: over.body ?? Buffer.from(JSON.stringify({ n })),
    isMoney: over.isMoney ?? false,
    createdAt: at,
  };
  return {
    event,
    bodyHash: over.hash ?? `h-${n}`,
    deliveries: endpointIds.map((ep, i) => {
      const skipped = over.skipped?.includes(ep) ?? false;
      return {
        id: `dlv_${String(n).padStart(6, '0')}_${i}`,
        endpointId: ep,
        status: skipped ? ('skipped' as const) : ('pending' as const),
        nextAttemptAt: skipped ? null : at,
      };
    }),
  };
}

export function attemptOf(
  deliveryId: string,
  tenantId: string,
  endpointId: string,
  n: number,
  at: number,
  outcome: Attempt['outcome'],
  status: number | null = outcome === 'success' ? 200 : 500,
): Attempt {
  return {
    id: `att_${deliveryId}_${n}_${at}`,
    deliveryId,
    tenantId,
    environment: 'live',
    endpointId,
    n,
    trigger: 'scheduled',
    ladder: 'fast',
    startedAt: at,
    durationMs: 12,
    requestHeaders: { 'x-webhook-id': 'e' },
    responseStatus: status,
    responseHeaders: status === null ? null : { 'content-type': 'text/plain' },
    responseExcerpt: status === null ? null : 'ok',
    errorClass: outcome === 'success' ? null : status === null ? 'connection' : 'status',
    errorMessage: outcome === 'success' ? null : 'boom',
    outcome,
    // Not traced: the record reads back with a null trace id.
    traceId: null,
    // Never held: the record of a delivery that was not held reads back with both null.
    heldFrom: null,
    heldUntil: null,
  };
}

export function record(
  a: Attempt,
  workerId: string,
  next: AttemptRecord['next'],
  over: Partial<AttemptRecord> = {},
): AttemptRecord {
  return {
    attempt: a,
    workerId,
    next,
    progress: {
      fastFailures: a.outcome === 'success' ? 0 : 1,
      slowFailures: 0,
      slowStartedAt: null,
      firstAttemptAt: a.startedAt,
    },
    replayId: null,
    previousAttemptAt: null,
    health: { rule: { pauseOnGone: false }, countsFailure: true, countsSuccess: true },
    breakerScope: null,
    ...over,
  };
}

/** A tenant ten_A with two active endpoints, ep_1 and ep_2. */
export const setup = async (store: Store, maxConcurrency = 20) => {
  await store.catalog.createTenant(tenant('ten_A'));
  await store.catalog.createEndpoint(endpoint('ep_1', 'ten_A', { maxConcurrency }), secret('sec_1', 'ep_1'));
  await store.catalog.createEndpoint(endpoint('ep_2', 'ten_A', { maxConcurrency }), secret('sec_2', 'ep_2'));
};

/** ten_A/ep_1 with four events a minute apart: 1 failed (HTTP 400), 2 succeeded, 3 failed, 4 skipped. */
export const failedSetup = async (store: Store) => {
  await store.catalog.createTenant(tenant('ten_A'));
  await store.catalog.createEndpoint(endpoint('ep_1', 'ten_A'), secret('sec_1', 'ep_1'));
  await store.events.acceptEvents(
    Array.from({ length: 4 }, (_, i) =>
      newEvent('ten_A', i + 1, ['ep_1'], { at: T0 + i * MIN, skipped: i === 3 ? ['ep_1'] : [] }),
    ),
  );
  let now = T0;
  for (let i = 0; i < 3; i++) {
    now = T0 + i * MIN;
    const [c] = await store.queue.claimDue({
      now,
      limit: 1,
      leaseUntil: now + MIN,
      workerId: 'w',
      saturatedEndpoints: [],
    });
    const ok = i === 1;
    await store.queue.recordAttempts(
      [
        record(
          attemptOf(c.delivery.id, 'ten_A', 'ep_1', 1, now, ok ? 'success' : 'client_error', ok ? 200 : 400),
          'w',
          ok ? { status: 'succeeded' } : { status: 'failed', reason: 'HTTP 400' },
        ),
      ],
      now,
    );
  }
};
