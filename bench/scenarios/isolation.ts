// Scenario `isolation`: 10 healthy endpoints next to one whose receiver never answers (every attempt times out,
// 10,000 deliveries retrying). Healthy deliveries/s with the dead endpoint present vs the same run without it.
import { performance } from 'node:perf_hooks';
import { acceptBacklog, engineFixture, TENANT, terminalCounter } from '../lib/fixture.ts';
import { storeThreadIds, threadCpu } from '../lib/thread-cpu.ts';

export async function measure(a: {
  okUrl: string;
  deadUrl: string | null;
  healthyEvents: number;
  deadDeliveries: number;
  deadTimeoutMs: number;
}) {
  const f = await engineFixture();
  const healthy = new Set<string>();
  for (let i = 0; i < 10; i++) {
    const { endpoint } = await f.engine.endpoints.create(TENANT, { url: `${a.okUrl}/${i}`, event_types: ['ok.*'] });
    healthy.add(endpoint.id);
  }
  let deadId: string | null = null;
  if (a.deadUrl) {
    // Its own origin (another receiver process), like a real customer's server; a short timeout keeps it churning.
    const { endpoint } = await f.engine.endpoints.create(TENANT, {
      url: a.deadUrl,
      event_types: ['dead.*'],
      timeout_ms: a.deadTimeoutMs,
    });
    deadId = endpoint.id;
    // Accepted first, so its deliveries are the oldest due rows: the worst case for the claim order.
    await acceptBacklog(f.engine, a.deadDeliveries, 1_000_000, 'dead.event');
  }
  await acceptBacklog(f.engine, a.healthyEvents, 0, 'ok.event'); // fans out to the 10 healthy endpoints
  const total = a.healthyEvents * 10;
  let deadAttempts = 0;
  f.engine.addObserver({ attempt: (e) => void (e.attempt.endpointId === deadId && deadAttempts++) });
  const counter = terminalCounter(f.engine, (id) => healthy.has(id));
  const cpu = threadCpu();
  const t0 = performance.now();
  f.engine.start();
  await counter.until(total, 180_000);
  const seconds = (performance.now() - t0) / 1000;
  const split = cpu.done(total, storeThreadIds(f.store));
  const deadInFlight = f.engine.inFlight;
  // Stopping waits for the dead endpoint's in-flight attempts to time out and commit (bounded by its timeout).
  await f.close();
  return {
    healthy_deliveries: total,
    seconds,
    per_s: total / seconds,
    dead_attempts: deadAttempts,
    // Per healthy delivery: the dead endpoint's attempts are part of the cost.
    cpu_us_per_delivery: split?.cpu_us_per_delivery ?? null,
    cpu_us_by_thread: split?.cpu_us_by_thread ?? null,
    in_flight_at_end: deadInFlight,
  };
}
