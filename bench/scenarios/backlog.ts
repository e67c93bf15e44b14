// Scenario `backlog`: a large backlog of deliveries scheduled in the future next to due ones: the engine process's
// RSS and the due-delivery throughput. The future rows are written straight into the SQLite file in one
// transaction (a million API calls would measure ingest, not this), then due events are accepted through the engine.

import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { acceptBacklog, engineFixture, TENANT, terminalCounter } from '../lib/fixture.ts';
import { storeThreadIds, threadCpu } from '../lib/thread-cpu.ts';

export async function measure(a: { url: string; future: number; due: number }) {
  const f = await engineFixture();
  const { endpoint } = await f.engine.endpoints.create(TENANT, { url: a.url });
  const now = Date.now();
  const t = performance.now();
  {
    const db = new Database(f.path);
    db.pragma('journal_mode = WAL');
    const ev =
      db.prepare(`INSERT INTO events (id, tenant_id, event_id, type, version, occurred_at, body, body_hash, is_money, created_at)
                           VALUES (?, ?, ?, 'bench.future', '1', ?, ?, 'h', 0, ?)`);
    const dl =
      db.prepare(`INSERT INTO deliveries (id, tenant_id, event_pk, endpoint_id, status, next_attempt_at, created_at, updated_at)
                           VALUES (?, ?, ?, ?, 'pending', ?, ?, ?)`);
    const body = Buffer.alloc(1024, 0x20);
    db.transaction(() => {
      const perEvent = 1; // one delivery per event, as a single-endpoint tenant would have
      for (let i = 0; i < a.future; i += perEvent) {
        const evId = `evt_F${String(i).padStart(9, '0')}`;
        ev.run(evId, TENANT, evId, new Date(now).toISOString(), body, now);
        // Due between 1 h and ~2 days from now: spread like real retry ladders, never due during the run.
        dl.run(
          `dlv_F${String(i).padStart(9, '0')}`,
          TENANT,
          evId,
          endpoint.id,
          now + 3_600_000 + (i % 172_800) * 1000,
          now,
          now,
        );
      }
    })();
    db.close();
  }
  const insertSeconds = (performance.now() - t) / 1000;
  await acceptBacklog(f.engine, a.due);
  global.gc?.();
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const rssBefore = process.memoryUsage().rss;
  const counter = terminalCounter(f.engine);
  const cpu = threadCpu();
  const t0 = performance.now();
  f.engine.start();
  await counter.until(a.due, 180_000);
  const seconds = (performance.now() - t0) / 1000;
  const split = cpu.done(a.due, storeThreadIds(f.store));
  // Keep the engine idling over the backlog briefly: its scheduler must not load the future rows either.
  await new Promise((r) => setTimeout(r, 500));
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  await f.close();
  return {
    future: a.future,
    due: a.due,
    seconds,
    per_s: a.due / seconds,
    rss_mb: peak / 2 ** 20,
    cpu_us_per_delivery: split?.cpu_us_per_delivery ?? null,
    cpu_us_by_thread: split?.cpu_us_by_thread ?? null,
    rss_before_start_mb: rssBefore / 2 ** 20,
    insert_seconds: insertSeconds,
  };
}
