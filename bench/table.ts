// Turns `npm run bench` output (JSON lines on stdin or in a file) into the Markdown table of docs/performance.md.
import { readFileSync } from 'node:fs';

const text = readFileSync(process.argv[2] ?? 0, 'utf8');
const lines = text
  .split('\n')
  .filter((l) => l.startsWith('{'))
  .map((l) => JSON.parse(l));
const fmt = (v: unknown) => (typeof v === 'number' ? v.toLocaleString('en-US') : String(v ?? ''));
const rows: string[][] = [];
const r = (v: unknown) => (v === undefined || v === null ? '—' : String(v));
for (const x of lines) {
  const met = x.met === null || x.met === undefined ? '—' : x.met ? 'yes' : '**no**';
  const t = x.targets ?? {};
  const target =
    Object.entries(t)
      .map(([k, v]) => `${k} ${v}`)
      .join('; ') || '—';
  if (x.error) {
    rows.push([x.scenario, `error: ${String(x.error).slice(0, 120)}`, '', '', target, met]);
    continue;
  }
  switch (x.scenario) {
    case 'limit':
      rows.push([
        'limit (bare undici pool, no store)',
        `${fmt(x.deliveries_per_s)} ${x.unit}`,
        '1',
        r(x.ratio_to_bullmq),
        target,
        met,
      ]);
      break;
    case 'drain':
      rows.push([
        'drain (SQLite, every attempt durably recorded)',
        `${fmt(x.deliveries_per_s)} ${x.unit} (logging each attempt to a file: ${fmt(x.logging_to_file_per_s)})`,
        r(x.ratio_to_limit),
        r(x.ratio_to_bullmq),
        target,
        met,
      ]);
      break;
    case 'peer':
      rows.push([
        'peer (BullMQ + Redis AOF everysec, concurrency 50)',
        `BullMQ ${fmt(x.bullmq_per_s)} vs Hookline ${fmt(x.hookline_drain_per_s)} ${x.unit}`,
        `BullMQ ${r(x.bullmq_ratio_to_limit)}`,
        `Hookline ${r(x.ratio_to_bullmq)}`,
        target,
        met,
      ]);
      break;
    case 'ingest':
      rows.push([
        'ingest over HTTP (durable 202)',
        `single ${fmt(x.single_per_s)}; batch ${fmt(x.batch_per_s)} ${x.unit}`,
        `${r(x.single_ratio_to_limit)} / ${r(x.batch_ratio_to_limit)}`,
        `${r(x.single_ratio_to_bullmq)} / ${r(x.batch_ratio_to_bullmq)}`,
        target,
        met,
      ]);
      break;
    case 'steady':
      rows.push([
        'steady (HTTP batches of 100 from 4 clients, delivered to a receiver process)',
        `${fmt(x.sustained_per_s)} events/s held ${x.hold_seconds} s at p50 ${x.p50_ms} ms, p99 ${x.p99_ms} ms (accept to receipt)`,
        r(x.ratio_to_limit),
        '—',
        target,
        met,
      ]);
      break;
    case 'latency':
      rows.push([
        `latency at ${fmt(x.rate_per_s)} events/s`,
        `p50 ${x.p50_ms} ms; p99 ${x.p99_ms} ms (accept to first attempt)`,
        '—',
        '—',
        target,
        met,
      ]);
      break;
    case 'isolation':
      rows.push([
        'isolation (a dead endpoint beside 10 healthy)',
        `${fmt(x.healthy_per_s)} vs ${fmt(x.baseline_per_s)} ${x.unit} without it (ratio_to_baseline ${x.ratio_to_baseline})`,
        r(x.ratio_to_limit),
        r(x.ratio_to_bullmq),
        target,
        met,
      ]);
      break;
    case 'backlog':
      rows.push([
        `backlog (${fmt(x.future_deliveries)} future deliveries)`,
        `RSS ${x.rss_mb} MB; ${fmt(x.due_per_s)} due/s vs ${fmt(x.baseline_due_per_s)} with a 10k backlog (ratio_to_baseline ${x.ratio_to_baseline})`,
        r(x.ratio_to_limit),
        r(x.ratio_to_bullmq),
        target,
        met,
      ]);
      break;
    case 'postgres':
      rows.push([
        'postgres drain (4 endpoints)',
        `1 worker ${fmt(x.workers_1_per_s)}; 3 workers ${fmt(x.workers_3_per_s)} ${x.unit ?? ''} (scaling ${r(x.scaling_3_over_1)}; ratio to pg-peer ${r(x.ratio_to_pg_peer)}; CPU per delivery: PostgreSQL ${fmt(x.pg_cpu_us_per_delivery)} µs, workers ${fmt(x.workers_cpu_us_per_delivery)} µs; ingest ${fmt(x.ingest_events_per_s)} events/s)`,
        r(x.ratio_to_limit),
        r(x.ratio_to_bullmq),
        target,
        met,
      ]);
      break;
    case 'pg-peer':
      rows.push([
        'pg-peer (graphile-worker 0.16, concurrency 50)',
        `${fmt(x.pg_peer_per_s)} ${x.unit}`,
        r(x.ratio_to_limit),
        r(x.ratio_to_bullmq),
        target,
        met,
      ]);
      break;
    case 'fanout':
      rows.push([
        'fan-out (200 endpoints, SQLite)',
        `${fmt(x.deliveries_per_s)} ${x.unit} vs ${fmt(x.drain_per_s)} single-endpoint (ratio_to_drain ${x.ratio_to_drain}); ingest ${fmt(x.ingest_deliveries_per_s)} deliveries created/s`,
        r(x.ratio_to_limit),
        r(x.ratio_to_bullmq),
        target,
        met,
      ]);
      break;
    case 'scrape':
      rows.push([
        `scrape (${x.scrapers} loops on /metrics, ${fmt(x.deliveries_in_table)} deliveries in the table)`,
        `ingest p99 ${x.ingest_p99_scraped_ms} ms while scraped (${fmt(x.scrapes_per_s)} scrapes/s) vs ${x.ingest_p99_ms} ms quiet (ratio ${x.ratio_p99_scraped_to_quiet})`,
        '—',
        '—',
        target,
        met,
      ]);
      break;
    case 'ordered':
      rows.push([
        `ordered (${fmt(x.keys)} keys, one endpoint)`,
        `${fmt(x.deliveries_per_s)} vs ${fmt(x.unordered_per_s)} ${x.unit} unordered (ratio_to_unordered ${x.ratio_to_unordered}); ${x.order_violations} order violations`,
        '—',
        '—',
        target,
        met,
      ]);
      break;
    case 'ordering':
      rows.push([
        `ordering isolation (a stuck key beside ${fmt(x.healthy_keys)} healthy keys)`,
        `${fmt(x.healthy_per_s)} vs ${fmt(x.baseline_per_s)} ${x.unit} without it (ratio_to_baseline ${x.ratio_to_baseline}); ${x.order_violations} order violations`,
        '—',
        '—',
        target,
        met,
      ]);
      break;
    case 'pg-history':
      rows.push([
        `pg-history (${fmt(x.history_deliveries)} finished deliveries kept)`,
        `drain ${fmt(x.history_per_s)}/s vs ${fmt(x.empty_per_s)}/s empty (ratio_to_empty ${r(x.ratio_to_empty)}); stats ${r(x.stats_ms)} ms, per minute ${r(x.per_minute_ms)} ms, dead-letter page ${r(x.dead_letter_page_ms)} ms; retention of ${fmt(x.retention_removed)} in ${r(x.retention_seconds)} s, p99 ratio ${r(x.retention_p99_ratio)}; week sizes ${(x.week_sizes_mb ?? []).join(' → ')} MB (ratio ${r(x.week_size_ratio)}; autovacuum ${r(x.server_autovacuum)})`,
        '—',
        '—',
        target,
        met,
      ]);
      break;
    default:
      rows.push([x.scenario, JSON.stringify(x), '', '', target, met]);
  }
}
console.log('| scenario | figure | ratio to limit | ratio to BullMQ | target | met |');
console.log('|---|---|---|---|---|---|');
for (const row of rows) console.log(`| ${row.join(' | ')} |`);
const env = lines[0];
if (env)
  console.log(
    `\nMachine: ${env.machine.cpus} × ${env.machine.cpu_model}, ${env.machine.mem_gb} GB, ${env.machine.os}; Node ${env.versions.node}, better-sqlite3 ${env.versions.sqlite}, undici ${env.versions.undici}, BullMQ ${env.versions.bullmq}, Redis ${env.versions.redis}.${env.quick ? ' (--quick: sizes too small for the targets)' : ''}`,
  );
