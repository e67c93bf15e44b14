// Figures every bench line compares against (the wire's limit, the SQLite drain, the BullMQ and graphile-worker peers), each measured once per run, and how a line is printed.
import { measureInChild, type Receiver } from './children.ts';
import { environment } from './machine.ts';
import { N, PROFILE_DIR, profile, quick, TIMEOUT } from './run-options.ts';
import { settle } from './settle.ts';
import { median, medianRun, round } from './stats.ts';
import type { CpuSplit } from './thread-cpu.ts';

/** The run's shared receivers: `okReceiver` answers 200 at once (started by run.ts before any scenario). */
export const ctx: { okReceiver: Receiver; receivers: Receiver[] } = {
  okReceiver: undefined as unknown as Receiver,
  receivers: [],
};

export function emit(line: Record<string, unknown>): void {
  const code = process.env.BENCH_SOURCE === '1' ? 'typescript sources (tsx)' : 'compiled dist/';
  process.stdout.write(`${JSON.stringify({ ...line, quick, code, ...environment() })}\n`);
}

export async function runs<T>(n: number, fn: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < n; i++) out.push(await fn(i));
  return out;
}

export async function child<T>(module: string, args: Record<string, unknown>): Promise<T> {
  // Each measured child starts on a settled machine: what the one before it wrote is flushed (lib/settle.ts).
  await settle();
  // --profile: every scenario child profiles its timed phase only (bench/.profiles/<scenario>-<pid>-<ms>.cpuprofile).
  return measureInChild<T>(module, 'measure', profile ? { ...args, profileDir: PROFILE_DIR } : args, {
    timeoutMs: TIMEOUT,
  });
}

// Figures are measured once per invocation and shared: every line compares against figures of the same run.
const memo = new Map<string, Promise<any>>();
export function once<T>(key: string, fn: () => Promise<T>): Promise<T> {
  if (!memo.has(key)) memo.set(key, fn());
  return memo.get(key)!;
}

export interface Rate {
  per_s: number;
  seconds: number;
}

export const limitFigure = () =>
  once('limit', async () => {
    const r = await runs(N.runs, () =>
      child<Rate>('limit.ts', { url: ctx.okReceiver.url(), events: N.events, warmup: N.warmup }),
    );
    return { per_s: median(r.map((x) => x.per_s)), runs: r.map((x) => round(x.per_s)) };
  });

export type DrainRun = Rate & CpuSplit & { loop_busy: number; store_thread_busy: number | null };
export const drainFigure = () =>
  once('drain', async () => {
    const r = await runs(N.runs, () =>
      child<DrainRun>('drain.ts', { url: ctx.okReceiver.url(), events: N.events, warmup: N.warmup }),
    );
    const m = medianRun(r, (x) => x.per_s);
    return {
      per_s: median(r.map((x) => x.per_s)),
      runs: r.map((x) => round(x.per_s)),
      // Of the median run: where the time went (CPU of the whole engine process, busy share of each thread).
      cpu_us_per_delivery: round(m.cpu_us_per_delivery),
      cpu_us_by_thread: m.cpu_us_by_thread,
      loop_busy: round(m.loop_busy, 2),
      store_thread_busy: m.store_thread_busy === null ? null : round(m.store_thread_busy, 2),
    };
  });

export const bullmqFigure = () =>
  once('peer', async () => {
    const r = await runs(N.runs, () =>
      child<Rate>('peer.ts', { url: ctx.okReceiver.url(), events: N.events, warmup: N.warmup, concurrency: 50 }),
    );
    return { per_s: median(r.map((x) => x.per_s)), runs: r.map((x) => round(x.per_s)) };
  });

export const pgPeerFigure = () =>
  once('pg-peer', async () => {
    const r = await runs(N.runs, () =>
      child<Rate>('pg-peer.ts', {
        url: ctx.okReceiver.url('/pg-peer'),
        events: N.events,
        warmup: N.warmup,
        concurrency: 50,
      }),
    );
    return { per_s: median(r.map((x) => x.per_s)), runs: r.map((x) => round(x.per_s)) };
  });

export const ratio = (a: number, b: number) => round(a / b, 3);
