// Scenario `pg-history`: PostgreSQL with millions of finished deliveries on the record (docs/scaling.md#history).
// One engine (one worker) drains against an empty database and again with `history` finished deliveries (with their
// events and attempts, spread over ten days) already kept; the console's reads are timed over that history; a day of
// history is removed by retention while a steady stream is delivered (its accept-to-receipt p99 against the same
// stream without retention); then a compressed week — a day's rows added and the oldest day removed, seven times —
// shows whether the database's size on disk stays flat.
import { performance } from 'node:perf_hooks';
import {
  createHookline,
  createSender,
  DEFAULT_RETENTION,
  generateMasterKey,
  type Hookline,
  openPostgresStore,
  purgeExpired,
  type Store,
} from '@hookline/core';
import pg from 'pg';
import { acceptBacklog, eventInput, TENANT, terminalCounter } from '../lib/fixture.ts';
import { scratchDatabase } from '../lib/scratch-pg.ts';
import { percentile } from '../lib/stats.ts';

const DAY = 86_400_000;
const ENDPOINTS = 4;
const wall = () => performance.timeOrigin + performance.now();
const ms = (t0: number) => performance.now() - t0;

export interface HistoryArgs {
  /** The shared receiver's base URL (bench/receiver.ts). */
  url: string;
  /** Finished deliveries kept before the drain (10 million in the full run). */
  history: number;
  /** Deliveries per timed drain. */
  drain: number;
  /** The steady stream measured with and without retention: events per second, and for how long. */
  rate: number;
  seconds: number;
  /** Days of the compressed week (each adds history/10 rows and removes the oldest day). */
  weekDays: number;
}

/** `n` finished deliveries numbered from `from`, one event and one attempt each, ending at `t0 + i * step` ms. */
async function addHistory(db: pg.Client, endpoints: string[], from: number, n: number, t0: number, step: number) {
  const CHUNK = 250_000;
  for (let lo = from; lo < from + n; lo += CHUNK) {
    const hi = Math.min(from + n, lo + CHUNK) - 1;
    // Ids sort before any id made now (`<prefix>_0…`), as older rows' do; one in 50 deliveries failed (dead letters).
    const params = [TENANT, lo, hi, t0 - from * step, step, endpoints];
    const id = (p: string) => `'${p}_00H' || lpad(g::text, 12, '0')`;
    const at = '($4::bigint + g::bigint * $5::bigint)';
    await db.query(
      `INSERT INTO events (id, tenant_id, event_id, type, version, occurred_at, body, body_hash, is_money, created_at)
       SELECT ${id('evt')}, $1, 'hist_' || g, 'e' || (g % ${ENDPOINTS}) || '.x', '1', '2026-01-05T12:00:00.000Z',
         convert_to(repeat(md5(g::text), 32), 'UTF8'), md5(g::text), 0, ${at} - 2000
       FROM generate_series($2::bigint, $3::bigint) g`,
      params.slice(0, 5),
    );
    await db.query(
      `INSERT INTO deliveries (id, tenant_id, event_pk, endpoint_id, status, attempt_count, first_attempt_at,
         last_attempt_at, terminal_reason, created_at, updated_at)
       SELECT ${id('dlv')}, $1, ${id('evt')}, ($6::text[])[(g % ${ENDPOINTS}) + 1],
         CASE WHEN g % 50 = 0 THEN 'failed' ELSE 'succeeded' END, 1, ${at} - 1000, ${at} - 1000,
         CASE WHEN g % 50 = 0 THEN 'http_500' END, ${at} - 2000, ${at}
       FROM generate_series($2::bigint, $3::bigint) g`,
      params,
    );
    await db.query(
      `INSERT INTO attempts (id, delivery_id, tenant_id, endpoint_id, n, trigger, started_at, duration_ms,
         request_headers, response_status, response_excerpt, outcome, ladder)
       SELECT ${id('att')}, ${id('dlv')}, $1, ($6::text[])[(g % ${ENDPOINTS}) + 1], 1, 'scheduled', ${at} - 1000, 12,
         '{}', CASE WHEN g % 50 = 0 THEN 500 ELSE 200 END, 'ok',
         CASE WHEN g % 50 = 0 THEN 'failure' ELSE 'success' END, 'fast'
       FROM generate_series($2::bigint, $3::bigint) g`,
      params,
    );
  }
}

/** Drains `n` queued deliveries with the engine's dispatcher; deliveries per second from start to the last record. */
async function drain(engine: Hookline, n: number, from: number): Promise<number> {
  for (let e = 0; e < ENDPOINTS; e++) await acceptBacklog(engine, n / ENDPOINTS, from + (e * n) / ENDPOINTS, `e${e}.x`);
  const counter = terminalCounter(engine);
  const t0 = performance.now();
  engine.start();
  await counter.until(n, 300_000);
  const seconds = ms(t0) / 1000;
  await engine.stopDispatching();
  return n / seconds;
}

/** Offers `rate`/s events for `seconds`, open loop; accept-to-receipt of each, read from the receiver's arrivals. */
async function stream(engine: Hookline, url: string, rate: number, seconds: number, from: number): Promise<number[]> {
  await fetch(new URL('/__reset', url), { method: 'POST', headers: { 'x-record-arrivals': '1' } });
  const accepted: Record<string, number> = {};
  const total = Math.round(rate * seconds);
  const pending: Promise<unknown>[] = [];
  const t0 = performance.now();
  for (let sent = 0; sent < total; ) {
    const due = Math.min(total, Math.floor((ms(t0) / 1000) * rate) + 1);
    for (; sent < due; sent++) {
      const input = eventInput(from + sent, `e${(from + sent) % ENDPOINTS}.x`);
      pending.push(engine.events.accept(TENANT, input).then(() => (accepted[input.event_id!] = wall())));
    }
    await new Promise((r) => setTimeout(r, 1));
  }
  await Promise.all(pending);
  const deadline = Date.now() + 60_000;
  let arrivals: Record<string, number> = {};
  do {
    await new Promise((r) => setTimeout(r, 100));
    arrivals = (await (await fetch(new URL('/__arrivals', url))).json()) as Record<string, number>;
  } while (Object.keys(arrivals).length < total && Date.now() < deadline);
  return Object.entries(accepted).map(([id, at]) => (arrivals[id] ?? Number.POSITIVE_INFINITY) - at);
}

/**
 * The product's retention pass (maintenance's purgeExpired: batches of 500, counters included) run until nothing
 * finished before `before` is left; the deliveries it removed.
 */
async function retain(store: Store, before: number): Promise<number> {
  let removed = 0;
  for (;;) {
    const c = await purgeExpired(store, before + DEFAULT_RETENTION.deliveriesMs);
    removed += c.deliveries;
    if (c.deliveries === 0 && c.events === 0) return removed;
  }
}

/** The median of `n` timings of `read`, in ms. */
async function timed(read: () => Promise<unknown>, n = 5): Promise<number> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await read();
    out.push(ms(t0));
  }
  return percentile(out, 50);
}

export async function measure(a: HistoryArgs) {
  const scratch = await scratchDatabase('hookline_history');
  const store = await openPostgresStore(scratch.url, { poolMax: 8 });
  const db = new pg.Client(scratch.url);
  await db.connect();
  try {
    const engine = createHookline({
      store,
      masterKey: generateMasterKey(),
      allowHttp: true,
      allowPrivateTargets: true,
      sender: createSender({ allowHttp: true, allowPrivateTargets: true, connectionsPerOrigin: 64 }),
      dispatcher: { logAttempts: false, batchSize: 200 },
      maintenance: { enabled: false },
    });
    const now = Date.now();
    await store.catalog.createTenant({
      id: TENANT,
      name: 'Bench',
      ownerEmails: [],
      operationsEndpointId: null,
      notifyEmail: false,
      createdAt: now,
      updatedAt: now,
    });
    const endpoints: string[] = [];
    for (let e = 0; e < ENDPOINTS; e++) {
      const ep = await engine.endpoints.create(TENANT, {
        url: new URL(`/hist/e${e}`, a.url).toString(),
        max_concurrency: 100,
        // Each event goes to one endpoint (its type's), so a drain of n events is n deliveries.
        event_types: [`e${e}.*`],
      });
      endpoints.push(ep.endpoint.id);
    }
    // Warm-up (untimed), then the drain against the empty database.
    await drain(engine, Math.min(2000, a.drain), 90_000_000);
    const emptyPerS = await drain(engine, a.drain, 91_000_000);

    // Ten days of history ending an hour ago: one day is history/10 deliveries.
    const perDay = Math.max(1, Math.floor(a.history / 10));
    const step = DAY / perDay;
    const start = now - 10 * DAY - 3_600_000;
    const fill0 = performance.now();
    await addHistory(db, endpoints, 0, a.history, start, step);
    await db.query('VACUUM ANALYZE');
    const fillSeconds = ms(fill0) / 1000;
    const historyPerS = await drain(engine, a.drain, 92_000_000);

    // The console's reads over that history: the overview's two, and the first page of dead letters.
    const statsMs = await timed(() => engine.stats.tenant(TENANT));
    const perMinuteMs = await timed(() => engine.stats.perMinute(TENANT));
    const deadLetterPageMs = await timed(() =>
      engine.deliveries.list({ tenantId: TENANT, status: 'failed' }, null, 50),
    );

    // Retention removing the oldest day while a steady stream is delivered, against the same stream without it.
    engine.start();
    const quiet = await stream(engine, a.url, a.rate, a.seconds, 93_000_000);
    let retentionSeconds = 0;
    let removed = 0;
    const retention = (async () => {
      const t0 = performance.now();
      removed = await retain(store, start + DAY);
      retentionSeconds = ms(t0) / 1000;
    })();
    const during = await stream(engine, a.url, a.rate, a.seconds, 94_000_000);
    await retention;
    await engine.stopDispatching();
    // A server with autovacuum off (this workplace's test server runs so) would never reuse the purged space, which
    // says nothing of Hookline: there, a VACUUM after each retention pass stands in for the autovacuum a production
    // server runs (migration 016 sets its thresholds), and the line says so.
    const autovacuumOn = (await db.query('SHOW autovacuum')).rows[0].autovacuum === 'on';
    const standIn = () => db.query('VACUUM (ANALYZE) deliveries, attempts, events, delivery_minutes');
    if (!autovacuumOn) await standIn();
    const p99Quiet = percentile(quiet, 99);
    const p99During = percentile(during, 99);

    // A compressed week of steady traffic: each day adds a day of history after the newest and retention removes the
    // oldest (batched deletes; autovacuum as configured), the database's size read after each day.
    // A day of the product's time passes between two retention passes: here, until autovacuum (as migration 016
    // tunes it) has visited the three history tables since the purge, bounded; a day it did not is counted.
    const size = async () => Number((await db.query('SELECT pg_database_size(current_database()) AS b')).rows[0].b);
    const vacuums = async () =>
      (
        await db.query(
          "SELECT coalesce(sum(autovacuum_count), 0)::int AS n, coalesce(sum(n_dead_tup), 0)::int AS dead FROM pg_stat_user_tables WHERE relname IN ('deliveries', 'attempts', 'events')",
        )
      ).rows[0] as { n: number; dead: number };
    // Visited since the purge, and most of the purge's dead rows gone (a visit that began mid-purge is not enough).
    const swept = (v: { n: number; dead: number }, seen: number) => v.n >= seen + 3 && v.dead < perDay * 0.3;
    let autovacuumMissed = 0;
    const sizes = [await size()];
    for (let d = 0; d < a.weekDays; d++) {
      await addHistory(db, endpoints, a.history + d * perDay, perDay, start + (10 + d) * DAY, step);
      const before = start + (2 + d) * DAY;
      const seen = (await vacuums()).n;
      await retain(store, before);
      if (autovacuumOn) {
        const deadline = Date.now() + 150_000;
        while (!swept(await vacuums(), seen) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 1000));
        if (!swept(await vacuums(), seen)) autovacuumMissed++;
      } else await standIn();
      sizes.push(await size());
    }
    await engine.stop();
    return {
      history: a.history,
      history_fill_seconds: fillSeconds,
      empty_per_s: emptyPerS,
      history_per_s: historyPerS,
      stats_ms: statsMs,
      per_minute_ms: perMinuteMs,
      dead_letter_page_ms: deadLetterPageMs,
      retention_removed: removed,
      retention_seconds: retentionSeconds,
      p99_quiet_ms: p99Quiet,
      p99_retention_ms: p99During,
      sizes_mb: sizes.map((b) => Math.round(b / 1e6)),
      autovacuum_missed_days: autovacuumMissed,
      autovacuum: autovacuumOn ? 'on' : 'off (a VACUUM after each day stands in for it)',
    };
  } finally {
    await db.end().catch(() => {});
    await store.close().catch(() => {});
    await scratch.drop();
  }
}
