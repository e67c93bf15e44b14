// Child processes of a benchmark run (receivers, redis-server, the API server, measured engines); all die with us.
import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const BENCH_DIR = dirname(dirname(fileURLToPath(import.meta.url)));
export const ROOT_DIR = dirname(BENCH_DIR);

const live = new Set<ChildProcess>();

export function killAll(): void {
  for (const c of live) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  live.clear();
}
process.on('exit', killAll);
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => process.exit(130));

export interface Child {
  proc: ChildProcess;
  /** Resolves with the first stdout line that parses as JSON. */
  firstJson: Promise<any>;
  /** Every JSON line printed on stdout. */
  lines: any[];
  exited: Promise<number | null>;
  kill(): Promise<void>;
}

export function startChild(
  cmd: string,
  args: string[],
  opts: { timeoutMs: number; stdin?: boolean; env?: NodeJS.ProcessEnv; cwd?: string },
): Child {
  const proc = spawn(cmd, args, {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: opts.env ?? process.env,
    cwd: opts.cwd ?? ROOT_DIR,
  });
  live.add(proc);
  const lines: any[] = [];
  const exited = new Promise<number | null>((resolve) =>
    proc.on('close', (code) => {
      live.delete(proc);
      resolve(code);
    }),
  );
  const firstJson = new Promise<any>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${cmd} ${args.join(' ')}: no answer within ${opts.timeoutMs} ms`)),
      opts.timeoutMs,
    );
    timer.unref();
    createInterface({ input: proc.stdout! }).on('line', (line) => {
      if (!line.startsWith('{')) return;
      try {
        const v = JSON.parse(line);
        lines.push(v);
        if (lines.length === 1) {
          clearTimeout(timer);
          resolve(v);
        }
      } catch {
        /* not ours */
      }
    });
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${cmd} ${args.join(' ')} exited with ${code} before answering`));
    });
  });
  firstJson.catch(() => {});
  return {
    proc,
    firstJson,
    lines,
    exited,
    async kill() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.kill('SIGTERM');
      const t = setTimeout(() => proc.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(t);
    },
  };
}

/**
 * Measure the packages as users run them: `@hookline/*` resolve to their compiled `dist/` (no `source` export
 * condition), while this folder's own TypeScript still runs through tsx. `--source` (BENCH_SOURCE=1) measures the
 * TypeScript sources instead.
 */
const CONDITIONS = process.env.BENCH_SOURCE === '1' ? ['--conditions=source'] : [];

/** A TypeScript file of this folder in a fresh node process; `nodeFlags` e.g. ['--cpu-prof']. */
export function startTs(
  file: string,
  args: string[],
  opts: { timeoutMs: number; nodeFlags?: string[]; env?: NodeJS.ProcessEnv },
): Child {
  return startChild(
    process.execPath,
    [...(opts.nodeFlags ?? []), ...CONDITIONS, '--import', 'tsx', join(BENCH_DIR, file), ...args],
    opts,
  );
}

export interface Receiver {
  port: number;
  url(path?: string): string;
  stats(): Promise<{ count: number; hanging: number }>;
  arrivals(): Promise<Record<string, number>>;
  reset(recordArrivals?: boolean): Promise<void>;
  /** Clears the counts and checks each key's order from now on (bench/receiver.ts: data {key, seq}; data.fail gets 500). */
  recordOrder(): Promise<void>;
  order(): Promise<{ keys: number; arrivals: number; violations: number }>;
  close(): Promise<void>;
}

async function control(port: number, path: string, headers: Record<string, string> = {}): Promise<any> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { method: path === '/__reset' ? 'POST' : 'GET', headers });
  return res.json();
}

export async function startReceiver(mode: 'ok' | 'hang' = 'ok'): Promise<Receiver> {
  const child = startTs('receiver.ts', [mode], { timeoutMs: 15_000 });
  const { port } = await child.firstJson;
  return {
    port,
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    stats: () => control(port, '/__stats'),
    arrivals: () => control(port, '/__arrivals'),
    reset: (rec = false) => control(port, '/__reset', rec ? { 'x-record-arrivals': '1' } : {}),
    recordOrder: () => control(port, '/__reset', { 'x-record-order': '1' }),
    order: () => control(port, '/__order'),
    close: () => child.kill(),
  };
}

/** Runs `bench/child.ts` with a scenario module's exported measure function; resolves with its JSON answer. */
export async function measureInChild<T>(
  module: string,
  fn: string,
  args: unknown,
  opts: { timeoutMs: number; nodeFlags?: string[] },
): Promise<T> {
  const child = startTs('child.ts', [module, fn, JSON.stringify(args)], opts);
  try {
    const out = await child.firstJson;
    if (out.error) throw new Error(`${module}.${fn}: ${out.error}`);
    await child.exited;
    return out as T;
  } finally {
    await child.kill();
  }
}
