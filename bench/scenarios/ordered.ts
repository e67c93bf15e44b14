// Scenario `ordered`: a backlog of deliveries over many ordering keys drained to one endpoint, ordered by key
// (docs/rules.md#ordered-delivery) or, for the comparison, the same events to an unordered endpoint. The receiver
// checks each key's order; the clock runs from start() until every delivery's attempt is committed.
import { performance } from 'node:perf_hooks';
import type { EventInput, SqliteThreadStore } from '@hookline/core';
import { engineFixture, eventInput, TENANT, terminalCounter } from '../lib/fixture.ts';
import { storeThreadIds, threadCpu } from '../lib/thread-cpu.ts';

/** `count` events numbered from `from`, round-robin over `keys` keys: key k's events are seq 0, 1, 2, … in accept order. */
export function keyedBacklog(
  count: number,
  keys: number,
  from = 0,
  extra: (i: number) => Record<string, unknown> = () => ({}),
): EventInput[][] {
  const batches: EventInput[][] = [];
  for (let i = 0; i < count; i += 1000) {
    const batch: EventInput[] = [];
    for (let j = i; j < Math.min(count, i + 1000); j++) {
      const e = eventInput(from + j);
      const key = `key-${String(j % keys).padStart(4, '0')}`;
      batch.push({
        ...e,
        ordering_key: key,
        data: { ...(e.data as object), key, seq: Math.floor(j / keys), ...extra(j) },
      });
    }
    batches.push(batch);
  }
  return batches;
}

export async function measure(a: { url: string; events: number; keys: number; ordered: boolean; warmup?: number }) {
  const f = await engineFixture();
  await f.engine.endpoints.create(TENANT, { url: a.url, ordering: a.ordered ? 'key' : 'none' });
  const counter = terminalCounter(f.engine);
  if (a.warmup) {
    // Warm-up (untimed), keyless: JIT and connections are steady when the clock starts.
    for (let i = 0; i < a.warmup; i += 1000) {
      const batch: EventInput[] = [];
      for (let j = i; j < Math.min(a.warmup, i + 1000); j++) batch.push(eventInput(10_000_000 + j));
      await f.engine.events.acceptMany(TENANT, batch);
    }
    f.engine.start();
    await counter.until(a.warmup, 60_000);
    await f.engine.stopDispatching();
  }
  for (const batch of keyedBacklog(a.events, a.keys)) await f.engine.events.acceptMany(TENANT, batch);
  const thread = f.store as Partial<Pick<SqliteThreadStore, 'threadUtilization'>>;
  const storeElu0 = thread.threadUtilization?.();
  const cpu = threadCpu();
  const t0 = performance.now();
  f.engine.start();
  await counter.until((a.warmup ?? 0) + a.events, 240_000);
  const seconds = (performance.now() - t0) / 1000;
  const split = cpu.done(a.events, storeThreadIds(f.store));
  const storeBusy = storeElu0 ? thread.threadUtilization!(storeElu0).utilization : null;
  const counts = await f.store.reporting.countByStatus();
  await f.close();
  return {
    deliveries: a.events,
    succeeded: counts.succeeded - (a.warmup ?? 0),
    seconds,
    per_s: a.events / seconds,
    // CPU per delivery (all of the process's threads, and by thread) is steadier than wall time on a shared machine.
    cpu_us_per_delivery: split?.cpu_us_per_delivery ?? null,
    cpu_us_by_thread: split?.cpu_us_by_thread ?? null,
    store_thread_busy: storeBusy,
  };
}
