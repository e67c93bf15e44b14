// Scenario `fanout`: one tenant with 200 endpoints (distinct paths on the run's receiver), one event type every
// endpoint subscribes to, and deliveries/200 events: each event fans out to all 200. Ingest is timed first (events
// accepted one call per event, 10 in flight, as API clients would: deliveries created per second, every call
// durably committed); then the drain of all those deliveries, as `drain` times it (SQLite store thread, from
// start() until every attempt is committed).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { SqliteThreadStore } from '@hookline/core';
import { connectionsOpened, openSockets } from '../lib/connections.ts';
import { engineFixture, eventInput, TENANT, terminalCounter } from '../lib/fixture.ts';
import { startPhaseProfile } from '../lib/phase-profile.ts';
import { storeThreadIds, threadCpu } from '../lib/thread-cpu.ts';

const TYPE = 'fan.out';

async function acceptEach(
  f: Awaited<ReturnType<typeof engineFixture>>,
  from: number,
  events: number,
  inFlight: number,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(inFlight, events) }, async () => {
      while (next < events) await f.engine.events.accept(TENANT, eventInput(from + next++, TYPE));
    }),
  );
}

export async function measure(a: {
  url: string;
  endpoints: number;
  deliveries: number;
  warmup?: number;
  profileDir?: string;
}) {
  const f = await engineFixture({}, mkdtempSync(join(tmpdir(), 'hookline-bench-')));
  const endpointIds = new Set<string>();
  for (let e = 0; e < a.endpoints; e++) {
    const ep = await f.engine.endpoints.create(TENANT, { url: `${a.url}/e${e}`, event_types: [TYPE] });
    endpointIds.add(ep.endpoint.id);
  }
  const reached = new Set<string>();
  f.engine.addObserver({ attempt: (e) => void reached.add(e.attempt.endpointId) });
  const counter = terminalCounter(f.engine);
  const events = Math.ceil(a.deliveries / a.endpoints);
  const warmEvents = Math.ceil((a.warmup ?? 0) / a.endpoints);
  if (warmEvents) {
    // Warm-up (untimed): the same ingest and drain on a few events, so JIT, connections and the 200 endpoints' lanes
    // are steady when the clock starts.
    await acceptEach(f, 20_000_000, warmEvents, 10);
    f.engine.start();
    await counter.until(warmEvents * a.endpoints, 120_000);
    await f.engine.stopDispatching();
  }
  const i0 = performance.now();
  await acceptEach(f, 0, events, 10);
  const ingestSeconds = (performance.now() - i0) / 1000;
  const created = events * a.endpoints;

  reached.clear();
  const stopProfile = await startPhaseProfile(a.profileDir, 'fanout');
  const cpu = threadCpu();
  const thread = f.store as Partial<Pick<SqliteThreadStore, 'threadUtilization'>>;
  const storeElu0 = thread.threadUtilization?.();
  const connects = connectionsOpened();
  // The dispatcher's leased deliveries (on the wire, queued in lanes or awaiting their commit), sampled.
  let inFlightSum = 0;
  let inFlightSamples = 0;
  const sampler = setInterval(() => {
    inFlightSum += f.engine.inFlight;
    inFlightSamples++;
  }, 100);
  const t0 = performance.now();
  f.engine.start();
  await counter.until(warmEvents * a.endpoints + created, 180_000);
  const seconds = (performance.now() - t0) / 1000;
  const split = cpu.done(created, storeThreadIds(f.store));
  clearInterval(sampler);
  const connectionsDuring = connects.stop();
  const sockets = openSockets();
  const storeElu = storeElu0 ? thread.threadUtilization!(storeElu0).utilization : null;
  await stopProfile();
  const counts = await f.store.reporting.countByStatus();
  await f.close();
  const reachedKnown = [...reached].filter((id) => endpointIds.has(id)).length;
  return {
    deliveries: created,
    succeeded: counts.succeeded - warmEvents * a.endpoints,
    endpoints_reached: reachedKnown,
    seconds,
    per_s: created / seconds,
    ingest_events: events,
    ingest_seconds: ingestSeconds,
    ingest_deliveries_per_s: created / ingestSeconds,
    cpu_us_per_delivery: split?.cpu_us_per_delivery ?? null,
    cpu_us_by_thread: split?.cpu_us_by_thread ?? null,
    store_thread_busy: storeElu,
    // The concurrency behind the CPU figures: drain holds one endpoint's 20 sockets (its cap); here 200 endpoints of
    // one receiver may hold up to 20 each, within the dispatcher's maxInFlight.
    in_flight_avg: inFlightSamples > 0 ? Math.round(inFlightSum / inFlightSamples) : null,
    connections_opened: connectionsDuring,
    sockets_open: sockets,
  };
}
