import { startReceiver } from '../lib/children.ts';
import { bullmqFigure, child, ctx, drainFigure, emit, limitFigure, type Rate, ratio, runs } from '../lib/figures.ts';
import { N, type Scenario } from '../lib/run-options.ts';
import { median, medianRun, round } from '../lib/stats.ts';
import type { CpuSplit } from '../lib/thread-cpu.ts';

export const lines: Partial<Record<Scenario, () => Promise<void>>> = {
  async isolation() {
    const dead = await startReceiver('hang');
    ctx.receivers.push(dead);
    type I = Rate & CpuSplit & { dead_attempts: number };
    const base = {
      okUrl: ctx.okReceiver.url('/iso'),
      healthyEvents: N.isoHealthyEvents,
      deadDeliveries: N.isoDead,
      deadTimeoutMs: 1000,
    };
    const pairs = await runs(N.runs, async () => ({
      without: await child<I>('isolation.ts', { ...base, deadUrl: null }),
      with: await child<I>('isolation.ts', { ...base, deadUrl: dead.url('/dead') }),
    }));
    const ratios = pairs.map((p) => p.with.per_s / p.without.per_s);
    const m = medianRun(pairs, (p) => p.with.per_s / p.without.per_s);
    const r = ratio(m.with.per_s, m.without.per_s);
    const [l, b] = [await limitFigure(), await bullmqFigure()];
    emit({
      scenario: 'isolation',
      healthy_per_s: round(m.with.per_s),
      baseline_per_s: round(m.without.per_s),
      unit: 'deliveries/s',
      ratio_runs: ratios.map((x) => round(x, 3)),
      healthy_endpoints: 10,
      healthy_deliveries: N.isoHealthyEvents * 10,
      dead_deliveries: N.isoDead,
      dead_timeout_ms: 1000,
      dead_attempts_during_run: m.with.dead_attempts,
      // Per healthy delivery, the dead endpoint's attempts included; then the same run without it.
      cpu_us_per_delivery: m.with.cpu_us_per_delivery,
      cpu_us_by_thread: m.with.cpu_us_by_thread,
      baseline_cpu_us_per_delivery: m.without.cpu_us_per_delivery,
      ratio_to_baseline: r,
      ratio_to_limit: ratio(m.with.per_s, l.per_s),
      limit_per_s: round(l.per_s),
      ratio_to_bullmq: ratio(m.with.per_s, b.per_s),
      bullmq_per_s: round(b.per_s),
      targets: { ratio_to_baseline: '>= 0.9' },
      met: r >= 0.9,
    });
    await dead.close();
  },

  async backlog() {
    type B = Rate & CpuSplit & { rss_mb: number; insert_seconds: number };
    const big = await runs(N.runs, () =>
      child<B>('backlog.ts', { url: ctx.okReceiver.url('/backlog'), future: N.backlogBig, due: N.backlogDue }),
    );
    const small = await runs(N.runs, () =>
      child<B>('backlog.ts', { url: ctx.okReceiver.url('/backlog'), future: N.backlogSmall, due: N.backlogDue }),
    );
    const bigRate = median(big.map((x) => x.per_s));
    const smallRate = median(small.map((x) => x.per_s));
    const rss = Math.max(...big.map((x) => x.rss_mb));
    const r = ratio(bigRate, smallRate);
    const [l, b] = [await limitFigure(), await bullmqFigure()];
    emit({
      scenario: 'backlog',
      future_deliveries: N.backlogBig,
      due_deliveries: N.backlogDue,
      rss_mb: round(rss),
      rss_unit: 'MB (peak, engine process)',
      due_per_s: round(bigRate),
      baseline_due_per_s: round(smallRate),
      baseline_future_deliveries: N.backlogSmall,
      unit: 'deliveries/s',
      runs: big.map((x) => round(x.per_s)),
      baseline_runs: small.map((x) => round(x.per_s)),
      baseline_rss_mb: round(Math.max(...small.map((x) => x.rss_mb))),
      ratio_to_baseline: r,
      cpu_us_per_delivery: medianRun(big, (x) => x.per_s).cpu_us_per_delivery,
      cpu_us_by_thread: medianRun(big, (x) => x.per_s).cpu_us_by_thread,
      ratio_to_limit: ratio(bigRate, l.per_s),
      limit_per_s: round(l.per_s),
      ratio_to_bullmq: ratio(bigRate, b.per_s),
      bullmq_per_s: round(b.per_s),
      targets: { rss_mb: '<= 300', ratio_to_baseline: '>= 0.8' },
      met: rss <= 300 && r >= 0.8,
    });
  },

  async ordered() {
    // The same keyed backlog to one endpoint ordered by key, and to an unordered one (the unordered drain), alternated.
    type O = Rate & CpuSplit & { succeeded: number; store_thread_busy: number | null };
    const base = { url: ctx.okReceiver.url('/ordered'), events: N.events, keys: N.orderedKeys, warmup: N.warmup };
    const pairs = await runs(N.runs, async () => {
      const unordered = await child<O>('ordered.ts', { ...base, ordered: false });
      await ctx.okReceiver.recordOrder();
      const ordered = await child<O>('ordered.ts', { ...base, ordered: true });
      const order = await ctx.okReceiver.order();
      await ctx.okReceiver.reset(false);
      return { unordered, ordered, order };
    });
    const m = medianRun(pairs, (p) => p.ordered.per_s / p.unordered.per_s);
    const r = ratio(m.ordered.per_s, m.unordered.per_s);
    const violations = pairs.reduce((s, p) => s + p.order.violations, 0);
    const arrived = pairs.every(
      (p) => p.order.arrivals === N.events && p.order.keys === N.orderedKeys && p.ordered.succeeded === N.events,
    );
    emit({
      scenario: 'ordered',
      deliveries_per_s: round(m.ordered.per_s),
      unordered_per_s: round(m.unordered.per_s),
      unit: 'deliveries/s',
      ratio_to_unordered: r,
      ratio_runs: pairs.map((p) => round(p.ordered.per_s / p.unordered.per_s, 3)),
      runs: pairs.map((p) => round(p.ordered.per_s)),
      // CPU per delivery is steadier than wall time on a shared machine: the same ratio, by cost.
      cpu_us_per_delivery: round(m.ordered.cpu_us_per_delivery),
      cpu_us_by_thread: m.ordered.cpu_us_by_thread,
      unordered_cpu_us_per_delivery: round(m.unordered.cpu_us_per_delivery),
      unordered_cpu_us_by_thread: m.unordered.cpu_us_by_thread,
      cpu_ratio_to_unordered: ratio(
        median(pairs.map((p) => p.unordered.cpu_us_per_delivery)),
        median(pairs.map((p) => p.ordered.cpu_us_per_delivery)),
      ),
      store_thread_busy: m.ordered.store_thread_busy === null ? null : round(m.ordered.store_thread_busy, 2),
      events: N.events,
      keys: N.orderedKeys,
      endpoint: 'one, ordering key, max_concurrency of the standard policy',
      order_violations: violations,
      receiver_arrivals: m.order.arrivals,
      targets: { ratio_to_unordered: '>= 0.8', order_violations: '0' },
      met: r >= 0.8 && violations === 0 && arrived,
    });
  },

  async ordering() {
    type I = Rate & { stuck_attempts: number; stuck_deliveries_attempted: number };
    const base = { url: ctx.okReceiver.url('/ordering'), healthyEvents: N.events, healthyKeys: 1000 };
    const pairs = await runs(N.runs, async () => {
      await ctx.okReceiver.recordOrder();
      const without = await child<I>('ordering-isolation.ts', { ...base, stuckEvents: 0 });
      await ctx.okReceiver.recordOrder();
      const withStuck = await child<I>('ordering-isolation.ts', { ...base, stuckEvents: N.stuckEvents });
      const order = await ctx.okReceiver.order();
      await ctx.okReceiver.reset(false);
      return { without, with: withStuck, order };
    });
    const m = medianRun(pairs, (p) => p.with.per_s / p.without.per_s);
    const r = ratio(m.with.per_s, m.without.per_s);
    const violations = pairs.reduce((s, p) => s + p.order.violations, 0);
    emit({
      scenario: 'ordering',
      healthy_per_s: round(m.with.per_s),
      baseline_per_s: round(m.without.per_s),
      unit: 'deliveries/s',
      ratio_runs: pairs.map((p) => round(p.with.per_s / p.without.per_s, 3)),
      healthy_keys: 1000,
      healthy_deliveries: N.events,
      stuck_deliveries: N.stuckEvents,
      stuck_retry: '100ms, 500 every time',
      stuck_attempts_during_run: m.with.stuck_attempts,
      stuck_deliveries_attempted: m.with.stuck_deliveries_attempted,
      order_violations: violations,
      ratio_to_baseline: r,
      targets: { ratio_to_baseline: '>= 0.9', stuck_deliveries_attempted: '1' },
      met: r >= 0.9 && violations === 0 && pairs.every((p) => p.with.stuck_deliveries_attempted === 1),
    });
  },

  async fanout() {
    const [l, d, b] = [await limitFigure(), await drainFigure(), await bullmqFigure()];
    type F = Rate &
      CpuSplit & {
        ingest_deliveries_per_s: number;
        ingest_events: number;
        succeeded: number;
        endpoints_reached: number;
        in_flight_avg: number | null;
        connections_opened: number;
        sockets_open: number | null;
      };
    const r = await runs(N.runs, () =>
      child<F>('fanout.ts', {
        url: ctx.okReceiver.url('/fanout'),
        endpoints: 200,
        deliveries: N.events,
        warmup: N.warmup,
      }),
    );
    const m = medianRun(r, (x) => x.per_s);
    const perS = median(r.map((x) => x.per_s));
    const ingest = median(r.map((x) => x.ingest_deliveries_per_s));
    const toDrain = ratio(perS, d.per_s);
    emit({
      scenario: 'fanout',
      deliveries_per_s: round(perS),
      unit: 'deliveries/s',
      runs: r.map((x) => round(x.per_s)),
      store: 'sqlite (as drain)',
      endpoints: 200,
      deliveries: N.events,
      events: N.events / 200,
      endpoints_reached: m.endpoints_reached,
      cpu_us_per_delivery: round(m.cpu_us_per_delivery),
      cpu_us_by_thread: m.cpu_us_by_thread,
      in_flight_avg: m.in_flight_avg,
      connections_opened: m.connections_opened,
      sockets_open: m.sockets_open,
      drain_cpu_us_per_delivery: d.cpu_us_per_delivery,
      drain_per_s: round(d.per_s),
      ratio_to_drain: toDrain,
      ingest_deliveries_per_s: round(ingest),
      ingest_runs: r.map((x) => round(x.ingest_deliveries_per_s)),
      ingest_unit:
        'deliveries created/s (events of one type fanning out to 200 endpoints, one engine.events.accept per event, 10 in flight)',
      ratio_to_limit: ratio(perS, l.per_s),
      limit_per_s: round(l.per_s),
      ratio_to_bullmq: ratio(perS, b.per_s),
      bullmq_per_s: round(b.per_s),
      targets: { ratio_to_drain: '>= 0.8' },
      met: toDrain >= 0.8 && r.every((x) => x.succeeded === N.events),
    });
  },
};
