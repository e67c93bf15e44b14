import {
  bullmqFigure,
  child,
  ctx,
  type DrainRun,
  drainFigure,
  emit,
  limitFigure,
  ratio,
  runs,
} from '../lib/figures.ts';
import { N, quick, type Scenario } from '../lib/run-options.ts';
import { median, medianRun, percentile, round } from '../lib/stats.ts';
import type { CpuSplit } from '../lib/thread-cpu.ts';
import type { Step } from '../scenarios/steady.ts';

export const lines: Partial<Record<Scenario, () => Promise<void>>> = {
  async limit() {
    const [l, b] = [await limitFigure(), await bullmqFigure()];
    emit({
      scenario: 'limit',
      deliveries_per_s: round(l.per_s),
      unit: 'requests/s',
      runs: l.runs,
      events: N.events,
      body_bytes: 1024,
      connections: 20,
      ratio_to_limit: 1,
      ratio_to_bullmq: ratio(l.per_s, b.per_s),
      bullmq_per_s: round(b.per_s),
      targets: {},
      met: true,
    });
  },

  async drain() {
    const [l, d, b] = [await limitFigure(), await drainFigure(), await bullmqFigure()];
    const logged = await child<DrainRun>('drain.ts', {
      url: ctx.okReceiver.url(),
      events: N.events,
      warmup: N.warmup,
      logToFile: true,
    });
    const r = ratio(d.per_s, l.per_s);
    emit({
      scenario: 'drain',
      deliveries_per_s: round(d.per_s),
      unit: 'deliveries/s',
      runs: d.runs,
      events: N.events,
      store: 'sqlite (WAL; store thread; fsync of the WAL before any answer)',
      limit_per_s: round(l.per_s),
      ratio_to_limit: r,
      bullmq_per_s: round(b.per_s),
      ratio_to_bullmq: ratio(d.per_s, b.per_s),
      logging_to_file_per_s: round(logged.per_s),
      logging_ratio_to_limit: ratio(logged.per_s, l.per_s),
      logging_ratio_to_drain: ratio(logged.per_s, d.per_s),
      logging_cpu_us_per_delivery: logged.cpu_us_per_delivery,
      cpu_us_per_delivery: d.cpu_us_per_delivery,
      cpu_us_by_thread: d.cpu_us_by_thread,
      loop_busy: d.loop_busy,
      store_thread_busy: d.store_thread_busy,
      targets: {
        ratio_to_limit: '>= 0.5',
        ratio_to_bullmq: '>= 1.5',
        logging_ratio_to_drain: '>= 0.95',
        cpu_us_per_delivery: '<= 90',
      },
      met: r >= 0.5 && d.per_s >= 1.5 * b.per_s && logged.per_s >= 0.95 * d.per_s && d.cpu_us_per_delivery <= 90,
    });
  },

  async peer() {
    const [l, d, b] = [await limitFigure(), await drainFigure(), await bullmqFigure()];
    const r = ratio(d.per_s, b.per_s);
    emit({
      scenario: 'peer',
      bullmq_per_s: round(b.per_s),
      unit: 'deliveries/s',
      runs: b.runs,
      events: N.events,
      setup: 'BullMQ Worker concurrency 50 + undici, redis appendonly everysec',
      hookline_drain_per_s: round(d.per_s),
      ratio_to_bullmq: r,
      bullmq_ratio_to_limit: ratio(b.per_s, l.per_s),
      limit_per_s: round(l.per_s),
      targets: { ratio_to_bullmq: '>= 1.5' },
      met: r >= 1.5,
    });
  },

  async ingest() {
    const [l, b] = [await limitFigure(), await bullmqFigure()];
    type I = {
      single_per_s: number;
      batch_per_s: number;
      single_errors: number;
      batch_errors: number;
      single_cpu: CpuSplit | null;
      batch_cpu: CpuSplit | null;
    };
    const r = await runs(N.runs, () =>
      child<I>('ingest.ts', {
        receiverUrl: ctx.okReceiver.url(),
        singles: N.ingestSingles,
        batches: N.ingestBatches,
        batchSize: 1000,
        clients: 50,
        warmup: N.warmup,
      }),
    );
    const single = median(r.map((x) => x.single_per_s));
    const batch = median(r.map((x) => x.batch_per_s));
    const errors = r.reduce((s, x) => s + x.single_errors + x.batch_errors, 0);
    emit({
      scenario: 'ingest',
      single_per_s: round(single),
      batch_per_s: round(batch),
      unit: 'events/s',
      single_runs: r.map((x) => round(x.single_per_s)),
      batch_runs: r.map((x) => round(x.batch_per_s)),
      clients: 50,
      batch_size: 1000,
      errors,
      // The server process's CPU per event (each event is one delivery row, skipped: the endpoint is paused), of the
      // median run, all threads and by thread.
      single_cpu_us_per_delivery: medianRun(r, (x) => x.single_per_s).single_cpu?.cpu_us_per_delivery ?? null,
      single_cpu_us_by_thread: medianRun(r, (x) => x.single_per_s).single_cpu?.cpu_us_by_thread ?? null,
      batch_cpu_us_per_delivery: medianRun(r, (x) => x.batch_per_s).batch_cpu?.cpu_us_per_delivery ?? null,
      batch_cpu_us_by_thread: medianRun(r, (x) => x.batch_per_s).batch_cpu?.cpu_us_by_thread ?? null,
      durable: 'each 202 after its commit is fsynced',
      server_role: 'all, endpoint paused (each event fans out to a skipped delivery; nothing to send)',
      single_ratio_to_limit: ratio(single, l.per_s),
      batch_ratio_to_limit: ratio(batch, l.per_s),
      limit_per_s: round(l.per_s),
      single_ratio_to_bullmq: ratio(single, b.per_s),
      batch_ratio_to_bullmq: ratio(batch, b.per_s),
      bullmq_per_s: round(b.per_s),
      // The ingest targets (docs/performance.md): single ingest as a share of the wire (the machine's speed moves), batch as events/s.
      targets: { single_ratio_to_limit: '>= 0.35', batch_per_s: '>= 30000' },
      met: single >= 0.35 * l.per_s && batch >= 30_000 && errors === 0,
    });
  },

  async scrape() {
    type P = { p50: number; p99: number; bad: number };
    type S = { quiet: P; scraped: P; scrapes: number; scrapes_per_s: number; scrape_errors: number };
    const r = await runs(N.runs, () =>
      child<S>('scrape.ts', {
        receiverUrl: ctx.okReceiver.url(),
        deliveries: N.scrapeDeliveries,
        singles: N.scrapeSingles,
        clients: 50,
        scrapers: 32,
      }),
    );
    const quiet = median(r.map((x) => x.quiet.p99));
    const scraped = median(r.map((x) => x.scraped.p99));
    const errors = r.reduce((s, x) => s + x.quiet.bad + x.scraped.bad + x.scrape_errors, 0);
    const ratioP99 = ratio(scraped, quiet);
    emit({
      scenario: 'scrape',
      deliveries_in_table: N.scrapeDeliveries,
      events: N.scrapeSingles,
      clients: 50,
      scrapers: 32,
      unit: 'ms',
      ingest_p99_ms: round(quiet, 1),
      ingest_p99_scraped_ms: round(scraped, 1),
      ratio_p99_scraped_to_quiet: ratioP99,
      ingest_p50_ms: round(median(r.map((x) => x.quiet.p50)), 1),
      ingest_p50_scraped_ms: round(median(r.map((x) => x.scraped.p50)), 1),
      scrapes_per_s: round(median(r.map((x) => x.scrapes_per_s))),
      errors,
      metrics_refresh: '5s (default)',
      targets: { ratio_p99_scraped_to_quiet: '<= 2' },
      met: ratioP99 <= 2 && errors === 0,
    });
  },

  async steady() {
    const l = await limitFigure();
    const out = await child<{ sustained: Step | null; probes: Step[]; holds: Step[] }>('steady.ts', {
      receiverUrl: ctx.okReceiver.url(),
      startRate: 2000,
      factor: 1.2,
      maxRate: 60_000,
      probeSeconds: N.steadyProbeSeconds,
      holdSeconds: N.steadyHoldSeconds,
      p99BoundMs: 100,
    });
    await ctx.okReceiver.reset(false);
    const s = out.sustained;
    const perS = s?.offered_per_s ?? 0;
    const r = ratio(perS, l.per_s);
    const brief = (x: Step) => ({
      offered_per_s: x.offered_per_s,
      accepted_per_s: round(x.accepted_per_s),
      p50_ms: round(x.p50_ms, 1),
      p99_ms: round(x.p99_ms, 1),
      held: x.held,
    });
    emit({
      scenario: 'steady',
      sustained_per_s: perS,
      unit: 'events/s accepted (batches of 100, 4 clients) and delivered, held for the hold time',
      ratio_to_limit: r,
      limit_per_s: round(l.per_s),
      p50_ms: s ? round(s.p50_ms, 1) : null,
      p99_ms: s ? round(s.p99_ms, 1) : null,
      latency: 'accept (the 202 at the client) to receipt (headers at the receiver)',
      hold_seconds: N.steadyHoldSeconds,
      probe_seconds: N.steadyProbeSeconds,
      // The server process's CPU per event (accepted and delivered) at the sustained rate, all threads and by thread.
      cpu_us_per_delivery: s?.cpu?.cpu_us_per_delivery ?? null,
      cpu_us_by_thread: s?.cpu?.cpu_us_by_thread ?? null,
      probes: out.probes.map(brief),
      holds: out.holds.map(brief),
      targets: { ratio_to_limit: '>= 0.3', p99_ms: '<= 100' },
      met: s !== null && r >= 0.3,
    });
  },

  async latency() {
    type L = {
      events: number;
      arrived: number;
      offered_per_s: number;
      fromAccept: number[];
      fromSend: number[];
      cpu: CpuSplit | null;
    };
    const r = await runs(N.runs, async () => {
      await ctx.okReceiver.reset(true);
      const out = await child<L>('latency.ts', {
        url: ctx.okReceiver.url('/latency'),
        rate: N.latencyRate,
        seconds: N.latencySeconds,
        warmupSeconds: quick ? 0.5 : 2,
      });
      await ctx.okReceiver.reset(false);
      return {
        ...out,
        p50: percentile(out.fromAccept, 50),
        p99: percentile(out.fromAccept, 99),
        p99Send: percentile(out.fromSend, 99),
        p50Send: percentile(out.fromSend, 50),
      };
    });
    const m = medianRun(r, (x) => x.p99);
    emit({
      scenario: 'latency',
      p50_ms: round(m.p50, 1),
      p99_ms: round(m.p99, 1),
      unit: 'ms accept-to-first-attempt',
      p99_runs: r.map((x) => round(x.p99, 1)),
      from_request_p50_ms: round(m.p50Send, 1),
      from_request_p99_ms: round(m.p99Send, 1),
      rate_per_s: N.latencyRate,
      offered_per_s: round(m.offered_per_s),
      seconds: N.latencySeconds,
      events: m.events,
      arrived: m.arrived,
      // The engine process's CPU per event (accepted and delivered) at this rate, all threads and by thread.
      cpu_us_per_delivery: m.cpu?.cpu_us_per_delivery ?? null,
      cpu_us_by_thread: m.cpu?.cpu_us_by_thread ?? null,
      targets: { p99_ms: '<= 20' },
      met: m.p99 <= 20 && m.arrived === m.events,
    });
  },
};
