// Turns `npm run bench` output (JSON lines on stdin or in a file) into the Markdown table of docs/performance.md.
import { readFileSync } from 'node:fs';

const text = readFileSync(process.argv[2] ?? 0, 'utf8');
const lines = text.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
const fmt = (v: unknown) => (typeof v === 'number' ? v.toLocaleString('en-US') : String(v ?? ''));
const rows: string[][] = [];
for (const x of lines) {
  const met = x.met === null || x.met === undefined ? '—' : x.met ? 'yes' : '**no**';
  const t = x.targets ?? {};
  const target = Object.entries(t).map(([k, v]) => `${k} ${v}`).join('; ') || '—';
  if (x.error) {
    rows.push([x.scenario, `error: ${String(x.error).slice(0, 120)}`, '', '', target, met]);
    continue;
  }
  switch (x.scenario) {
    case 'limit': rows.push(['limit', `${fmt(x.deliveries_per_s)}`, x.unit, '1', target, met]); break;
    case 'drain': rows.push(['drain', `${fmt(x.deliveries_per_s)} (logging to a file: ${fmt(x.logging_to_file_per_s)})`, x.unit, `ratio_to_limit ${x.ratio_to_limit}`, target, met]); break;
    case 'peer': rows.push(['peer (BullMQ)', `${fmt(x.bullmq_per_s)} vs Hookline ${fmt(x.hookline_drain_per_s)}`, x.unit, `ratio_to_bullmq ${x.ratio_to_bullmq}; BullMQ ratio_to_limit ${x.bullmq_ratio_to_limit}`, target, met]); break;
    case 'ingest': rows.push(['ingest', `single ${fmt(x.single_per_s)}; batch ${fmt(x.batch_per_s)}`, x.unit, `ratio_to_limit ${x.single_ratio_to_limit} / ${x.batch_ratio_to_limit}`, target, met]); break;
    case 'latency': rows.push(['latency', `p50 ${x.p50_ms}; p99 ${x.p99_ms}`, 'ms', `at ${fmt(x.offered_per_s)} events/s offered`, target, met]); break;
    case 'isolation': rows.push(['isolation', `${fmt(x.healthy_per_s)} vs ${fmt(x.baseline_per_s)} without the dead endpoint`, x.unit, `ratio_to_baseline ${x.ratio_to_baseline}`, target, met]); break;
    case 'backlog': rows.push(['backlog', `RSS ${x.rss_mb} MB; ${fmt(x.due_per_s)} due/s vs ${fmt(x.baseline_due_per_s)} (10k backlog)`, `MB, ${x.unit}`, `ratio_to_baseline ${x.ratio_to_baseline}`, target, met]); break;
    case 'postgres': rows.push(['postgres', x.skipped ? `skipped: ${x.skipped}` : `1 worker ${fmt(x.workers_1_per_s)}; 3 workers ${fmt(x.workers_3_per_s)}`, x.unit ?? '', x.ratio_to_limit !== undefined ? `ratio_to_limit ${x.ratio_to_limit}` : '—', target, met]); break;
    default: rows.push([x.scenario, x.error ? `error: ${x.error}` : JSON.stringify(x), '', '', target, met]);
  }
}
console.log('| scenario | figure | unit | ratio | target | met |');
console.log('|---|---|---|---|---|---|');
for (const r of rows) console.log(`| ${r.join(' | ')} |`);
const env = lines[0];
if (env) console.log(`\nMachine: ${env.machine.cpus} × ${env.machine.cpu_model}, ${env.machine.mem_gb} GB, ${env.machine.os}; Node ${env.versions.node}, better-sqlite3 ${env.versions.sqlite}, undici ${env.versions.undici}, BullMQ ${env.versions.bullmq}, Redis ${env.versions.redis}.${env.quick ? ' (--quick: sizes too small for the targets)' : ''}`);
