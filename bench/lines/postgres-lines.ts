import { measureInChild, startTs } from '../lib/children.ts';
import { bullmqFigure, ctx, emit, limitFigure, pgPeerFigure, ratio } from '../lib/figures.ts';
import { HISTORY, N, PROFILE_DIR, profile, quick, type Scenario, TIMEOUT } from '../lib/run-options.ts';
import { median, round } from '../lib/stats.ts';

export const lines: Partial<Record<Scenario, () => Promise<void>>> = {
  async postgres() {
    const medianOrNull = (xs: Array<number | null>) =>
      xs.some((x) => x === null) ? null : round(median(xs as number[]));
    const [l, b, g] = [await limitFigure(), await bullmqFigure(), await pgPeerFigure()];
    // N queued deliveries (4 endpoints on the run's receiver) drained by K worker processes; one JSON line each.
    const drain = async (workers: number) => {
      const args = ['--events', String(N.events), '--warmup', String(N.warmup), '--workers', String(workers)];
      args.push('--receiver', ctx.okReceiver.url(''));
      if (profile) args.push('--profile-dir', PROFILE_DIR);
      const c = startTs('postgres-drain.ts', args, { timeoutMs: TIMEOUT * 2 });
      try {
        await c.firstJson;
        await c.exited;
        return c.lines[0] as {
          deliveriesPerSec: number;
          seconds: number;
          seedEventsPerSec: number;
          pgCpuUsPerDelivery: number | null;
          workersCpuUsPerDelivery: number;
        };
      } finally {
        await c.kill();
      }
    };
    // Alternated (1, 3, 1, 3, …) so a slow moment of the shared machine hits both sides alike.
    const one: Awaited<ReturnType<typeof drain>>[] = [];
    const three: Awaited<ReturnType<typeof drain>>[] = [];
    for (let i = 0; i < N.runs; i++) {
      one.push(await drain(1));
      three.push(await drain(3));
    }
    const r1 = median(one.map((x) => x.deliveriesPerSec));
    const r3 = median(three.map((x) => x.deliveriesPerSec));
    const ingest = median([...one, ...three].map((x) => x.seedEventsPerSec));
    const scaling = ratio(r3, r1);
    const toPeer = ratio(r1, g.per_s);
    const pgCpu = medianOrNull(one.map((x) => x.pgCpuUsPerDelivery));
    emit({
      scenario: 'postgres',
      workers_1_per_s: round(r1),
      workers_3_per_s: round(r3),
      unit: 'deliveries/s',
      runs_1: one.map((x) => round(x.deliveriesPerSec)),
      runs_3: three.map((x) => round(x.deliveriesPerSec)),
      events: N.events,
      endpoints: 4,
      scaling_3_over_1: scaling,
      pg_peer_per_s: round(g.per_s),
      ratio_to_pg_peer: toPeer,
      workers_3_ratio_to_pg_peer: ratio(r3, g.per_s),
      ratio_to_limit: ratio(r1, l.per_s),
      workers_3_ratio_to_limit: ratio(r3, l.per_s),
      limit_per_s: round(l.per_s),
      ratio_to_bullmq: ratio(r1, b.per_s),
      workers_3_ratio_to_bullmq: ratio(r3, b.per_s),
      bullmq_per_s: round(b.per_s),
      // CPU per delivery, the PostgreSQL server's (its processes in /proc) and the workers' summed: far less sensitive to
      // the machine's load than throughput, so comparable across runs.
      pg_cpu_us_per_delivery: pgCpu,
      workers_cpu_us_per_delivery: round(median(one.map((x) => x.workersCpuUsPerDelivery))),
      workers_3_pg_cpu_us_per_delivery: medianOrNull(three.map((x) => x.pgCpuUsPerDelivery)),
      workers_3_cpu_us_per_delivery: round(median(three.map((x) => x.workersCpuUsPerDelivery))),
      ingest_events_per_s: round(ingest),
      ingest_note: 'the backlog accepted through engine.events.acceptMany in batches of 1,000 (untimed by the drain)',
      targets: {
        ratio_to_limit: '>= 0.2',
        ratio_to_pg_peer: '>= 3',
        pg_cpu_us_per_delivery: '<= 90',
        scaling_3_over_1: '>= 1.3',
      },
      met: ratio(r1, l.per_s) >= 0.2 && toPeer >= 3 && (pgCpu ?? Infinity) <= 90 && scaling >= 1.3,
    });
  },

  async 'pg-peer'() {
    const [l, b, g] = [await limitFigure(), await bullmqFigure(), await pgPeerFigure()];
    emit({
      scenario: 'pg-peer',
      pg_peer_per_s: round(g.per_s),
      unit: 'deliveries/s',
      runs: g.runs,
      events: N.events,
      setup: 'graphile-worker 0.16 concurrency 50 + undici, attempt row and job completion in one transaction',
      ratio_to_pg_peer: 1,
      ratio_to_limit: ratio(g.per_s, l.per_s),
      limit_per_s: round(l.per_s),
      ratio_to_bullmq: ratio(g.per_s, b.per_s),
      bullmq_per_s: round(b.per_s),
      targets: {},
      met: true,
    });
  },

  async 'pg-history'() {
    type H = Awaited<ReturnType<typeof import('../scenarios/pg-history.ts').measure>>;
    // One run (filling ten million rows takes minutes); its drains are medians of nothing, so read them as one sample.
    const h = await measureInChild<H>(
      'pg-history.ts',
      'measure',
      {
        url: ctx.okReceiver.url(''),
        history: HISTORY,
        drain: N.events,
        rate: N.latencyRate,
        seconds: quick ? 3 : 15,
        weekDays: quick ? 2 : 7,
      },
      { timeoutMs: quick ? 600_000 : 7_200_000 },
    );
    const toEmpty = ratio(h.history_per_s, h.empty_per_s);
    const p99Ratio = ratio(h.p99_retention_ms, h.p99_quiet_ms);
    const sizeRatio = ratio(h.sizes_mb[h.sizes_mb.length - 1], h.sizes_mb[0]);
    emit({
      scenario: 'pg-history',
      history_deliveries: h.history,
      history_fill_seconds: round(h.history_fill_seconds, 1),
      empty_per_s: round(h.empty_per_s),
      history_per_s: round(h.history_per_s),
      ratio_to_empty: toEmpty,
      stats_ms: round(h.stats_ms, 1),
      per_minute_ms: round(h.per_minute_ms, 1),
      dead_letter_page_ms: round(h.dead_letter_page_ms, 1),
      retention_removed: h.retention_removed,
      retention_seconds: round(h.retention_seconds, 1),
      p99_quiet_ms: round(h.p99_quiet_ms, 1),
      p99_retention_ms: round(h.p99_retention_ms, 1),
      retention_p99_ratio: p99Ratio,
      week_sizes_mb: h.sizes_mb,
      week_size_ratio: sizeRatio,
      week_days_autovacuum_missed: h.autovacuum_missed_days,
      server_autovacuum: h.autovacuum,
      targets: {
        ratio_to_empty: '>= 0.9',
        retention_p99_ratio: '<= 2',
        stats_ms: '<= 50',
        per_minute_ms: '<= 50',
        dead_letter_page_ms: '<= 50',
        week_size_ratio: '<= 1.1',
      },
      met:
        toEmpty >= 0.9 &&
        p99Ratio <= 2 &&
        h.stats_ms <= 50 &&
        h.per_minute_ms <= 50 &&
        h.dead_letter_page_ms <= 50 &&
        sizeRatio <= 1.1,
    });
  },
};
