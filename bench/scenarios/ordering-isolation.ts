// Scenario `ordering`: one ordering key whose receiver answers 500 for the whole run (its head retries every 100 ms,
// the rest of its events wait behind it at the front of the due queue) beside healthy keys on the same ordered
// endpoint. Healthy deliveries/s with the stuck key present vs the same run without it (docs/rules.md#ordered-claim).
import { performance } from 'node:perf_hooks';
import { PolicyRegistry } from '@hookline/core';
import { engineFixture, TENANT, terminalCounter } from '../lib/fixture.ts';
import { keyedBacklog } from './ordered.ts';

const POLICIES = [
  {
    name: 'bench-stuck',
    extends: 'standard',
    jitter: 0,
    fast: { delays: ['100ms'], repeatLast: true, maxFailures: 1000 },
  },
];

export async function measure(a: { url: string; healthyEvents: number; healthyKeys: number; stuckEvents: number }) {
  const f = await engineFixture({ policies: PolicyRegistry.fromConfig(POLICIES) });
  const { endpoint } = await f.engine.endpoints.create(TENANT, { url: a.url, ordering: 'key', policy: 'bench-stuck' });
  if (a.stuckEvents > 0) {
    // Accepted first: the stuck key's waiting deliveries are the oldest due rows, the worst case for the claim.
    for (const batch of keyedBacklog(a.stuckEvents, 1, 50_000_000, () => ({ fail: true }))) {
      await f.engine.events.acceptMany(
        TENANT,
        batch.map((e) => ({ ...e, ordering_key: 'stuck', data: { ...(e.data as object), key: 'stuck' } })),
      );
    }
  }
  for (const batch of keyedBacklog(a.healthyEvents, a.healthyKeys)) await f.engine.events.acceptMany(TENANT, batch);
  let stuckAttempts = 0;
  const stuck = new Set<string>();
  f.engine.addObserver({
    attempt: (e) => void (e.attempt.outcome !== 'success' && (stuckAttempts++, stuck.add(e.attempt.deliveryId))),
  });
  const counter = terminalCounter(f.engine, (id) => id === endpoint.id);
  const t0 = performance.now();
  f.engine.start();
  await counter.until(a.healthyEvents, 240_000);
  const seconds = (performance.now() - t0) / 1000;
  const counts = await f.store.reporting.countByStatus();
  await f.close();
  // Only the stuck key's head was ever attempted: its later events waited unattempted the whole run.
  return {
    healthy_deliveries: a.healthyEvents,
    seconds,
    per_s: a.healthyEvents / seconds,
    stuck_attempts: stuckAttempts,
    stuck_deliveries_attempted: stuck.size,
    pending_at_end: counts.pending + counts.delivering,
  };
}
