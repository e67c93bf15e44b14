// Scenario `latency`: a steady stream of events (1,000/s) accepted through the engine; accept-to-first-attempt
// is the receiver's arrival time minus the moment the accept resolved (durably committed). Both processes read
// the same wall clock (performance.timeOrigin + now()).
import { performance } from 'node:perf_hooks';
import { type EngineFixture, engineFixture, eventInput, TENANT } from '../lib/fixture.ts';
import { storeThreadIds, threadCpu } from '../lib/thread-cpu.ts';

const wall = () => performance.timeOrigin + performance.now();

/** Offers `total` events at `rate`/s, open loop: each tick sends whatever is due by now, so a slow accept cannot slow the offered rate. */
async function stream(
  f: EngineFixture,
  rate: number,
  total: number,
  from: number,
  accepted: Record<string, { sent: number; accepted: number }>,
) {
  const pending: Promise<void>[] = [];
  const t0 = performance.now();
  let sent = 0;
  while (sent < total) {
    const due = Math.min(total, Math.floor(((performance.now() - t0) / 1000) * rate) + 1);
    for (; sent < due; sent++) {
      const input = eventInput(from + sent, 'bench.latency');
      const s = wall();
      pending.push(
        f.engine.events
          .accept(TENANT, input)
          .then(() => void (accepted[input.event_id!] = { sent: s, accepted: wall() })),
      );
    }
    await new Promise((r) => setTimeout(r, 1));
  }
  await Promise.all(pending);
  return (performance.now() - t0) / 1000;
}

export async function measure(a: { url: string; rate: number; seconds: number; warmupSeconds?: number }) {
  const f = await engineFixture();
  await f.engine.endpoints.create(TENANT, { url: a.url });
  f.engine.start();
  // Warm-up (untimed), as every scenario gets: the same stream for a while, so JIT, connections and the store's
  // threads are steady when measuring starts; then the receiver forgets those arrivals.
  const warm = Math.round(a.rate * (a.warmupSeconds ?? 2));
  if (warm > 0) {
    await stream(f, a.rate, warm, 10_000_000, {});
    await new Promise((r) => setTimeout(r, 500));
    await fetch(new URL('/__reset', a.url), { method: 'POST', headers: { 'x-record-arrivals': '1' } });
  }
  const total = Math.round(a.rate * a.seconds);
  const accepted: Record<string, { sent: number; accepted: number }> = {};
  const cpu = threadCpu();
  const offeredSeconds = await stream(f, a.rate, total, 0, accepted);
  // Let the last attempts land.
  const deadline = Date.now() + 10_000;
  let arrivals: Record<string, number> = {};
  for (;;) {
    arrivals = (await (await fetch(new URL('/__arrivals', a.url))).json()) as Record<string, number>;
    if (Object.keys(arrivals).length >= total || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const split = cpu.done(total, storeThreadIds(f.store));
  await f.close();
  const fromAccept: number[] = [];
  const fromSend: number[] = [];
  for (const [id, t] of Object.entries(accepted)) {
    const at = arrivals[id];
    if (at === undefined) continue;
    fromAccept.push(at - t.accepted);
    fromSend.push(at - t.sent);
  }
  return {
    events: total,
    arrived: fromAccept.length,
    offered_per_s: total / offeredSeconds,
    fromAccept,
    fromSend,
    cpu: split,
  };
}
