// The bench's command line, read once: which scenarios, --quick sizes, --events/--history overrides, --profile.
import { join } from 'node:path';
import { BENCH_DIR } from './children.ts';

export const SCENARIOS = [
  'limit',
  'drain',
  'peer',
  'ingest',
  'scrape',
  'latency',
  'steady',
  'isolation',
  'backlog',
  'postgres',
  'pg-peer',
  'fanout',
  'ordered',
  'ordering',
  'pg-history',
] as const;
export type Scenario = (typeof SCENARIOS)[number];

export const argv = process.argv.slice(2);
export const quick = argv.includes('--quick');
export const profile = argv.includes('--profile');
const onlyArg = argv.find((a, i) => a.startsWith('--only') && (a.includes('=') || argv[i + 1]));
const onlyValue = onlyArg?.includes('=')
  ? onlyArg.split('=')[1]
  : onlyArg
    ? argv[argv.indexOf(onlyArg) + 1]
    : undefined;
export const only = onlyValue ? onlyValue.split(',').map((s) => s.trim()) : [...SCENARIOS];
for (const s of only)
  if (!SCENARIOS.includes(s as Scenario)) throw new Error(`unknown scenario ${s}; known: ${SCENARIOS.join(', ')}`);

/** Sizes: the numbers, or small ones that finish everything in under a minute (--quick). */
export const N = quick
  ? {
      events: 1000,
      warmup: 200,
      runs: 1,
      latencyRate: 1000,
      latencySeconds: 2,
      steadyProbeSeconds: 2,
      steadyHoldSeconds: 3,
      isoHealthyEvents: 100,
      isoDead: 500,
      backlogBig: 50_000,
      backlogSmall: 10_000,
      backlogDue: 1000,
      ingestSingles: 1000,
      ingestBatches: 2,
      scrapeDeliveries: 30_000,
      scrapeSingles: 2000,
      orderedKeys: 100,
      stuckEvents: 100,
    }
  : {
      events: 20_000,
      warmup: 2000,
      runs: 3,
      latencyRate: 1000,
      latencySeconds: 20,
      steadyProbeSeconds: 5,
      steadyHoldSeconds: 20,
      isoHealthyEvents: 2000,
      isoDead: 10_000,
      backlogBig: 1_000_000,
      backlogSmall: 10_000,
      backlogDue: 20_000,
      ingestSingles: 20_000,
      ingestBatches: 20,
      scrapeDeliveries: 300_000,
      scrapeSingles: 10_000,
      orderedKeys: 1000,
      stuckEvents: 1000,
    };
// --events N: a smaller (or larger) drain size for the drain-like scenarios (limit, drain, peer, postgres, fanout), e.g.
// while profiling; the targets are judged at the default size.
const eventsArg = argv.indexOf('--events');
if (eventsArg >= 0) N.events = Number(argv[eventsArg + 1]);
// --history N: finished deliveries kept for pg-history (default 10 million; 200,000 with --quick).
const historyArg = argv.indexOf('--history');
export const HISTORY = historyArg >= 0 ? Number(argv[historyArg + 1]) : quick ? 200_000 : 10_000_000;
export const TIMEOUT = quick ? 60_000 : 300_000;
export const PROFILE_DIR = join(BENCH_DIR, '.profiles');
