// Scenario `drain`: deliveries/s from a backlog of pending deliveries to a fast receiver, durable SQLite store,
// every attempt recorded. The backlog is accepted before the clock starts; the clock runs from start() until the
// observer has seen every delivery's attempt committed.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { BufferedLogDestination, pinoLogger, type SqliteThreadStore } from '@hookline/core';
import { acceptBacklog, engineFixture, TENANT, terminalCounter } from '../lib/fixture.ts';
import { startPhaseProfile } from '../lib/phase-profile.ts';
import { storeThreadIds, threadCpu } from '../lib/thread-cpu.ts';

export async function measure(a: {
  url: string;
  events: number;
  warmup?: number;
  logToFile?: boolean;
  batchSize?: number;
  maxInFlight?: number;
  profileDir?: string;
}) {
  const dir = mkdtempSync(join(tmpdir(), 'hookline-bench-'));
  // The logging variant writes one JSON line per attempt to a file through the destination `hookline serve` logs
  // through (BufferedLogDestination), as a deployment would (never to our stdout).
  const logger = a.logToFile ? pinoLogger('info', new BufferedLogDestination(join(dir, 'attempts.log'))) : undefined;
  const f = await engineFixture(
    {
      logger,
      // Only given tunables: an explicit undefined would override the dispatcher's defaults.
      dispatcher: {
        logAttempts: logger !== undefined,
        ...(a.batchSize ? { batchSize: a.batchSize } : {}),
        ...(a.maxInFlight ? { maxInFlight: a.maxInFlight } : {}),
      },
    },
    dir,
  );
  await f.engine.endpoints.create(TENANT, { url: a.url });
  const counter = terminalCounter(f.engine);
  if (a.warmup) {
    // Warm-up (untimed): the same path on a few deliveries, so JIT and connections are steady when the clock starts.
    await acceptBacklog(f.engine, a.warmup, 10_000_000);
    f.engine.start();
    await counter.until(a.warmup, 60_000);
    await f.engine.stopDispatching(); // the dispatcher only: the sender's pools stay warm
  }
  await acceptBacklog(f.engine, a.events);
  const stopProfile = await startPhaseProfile(a.profileDir, 'drain');
  const cpu = threadCpu();
  const elu0 = performance.eventLoopUtilization();
  const thread = f.store as Partial<Pick<SqliteThreadStore, 'threadUtilization'>>;
  const storeElu0 = thread.threadUtilization?.();
  const t0 = performance.now();
  f.engine.start();
  await counter.until((a.warmup ?? 0) + a.events, 120_000);
  const seconds = (performance.now() - t0) / 1000;
  const split = cpu.done(a.events, storeThreadIds(f.store));
  const elu = performance.eventLoopUtilization(elu0).utilization;
  const storeElu = storeElu0 ? thread.threadUtilization!(storeElu0).utilization : null;
  await stopProfile();
  const counts = await f.store.reporting.countByStatus();
  await f.engine.stop();
  await logger?.flush?.();
  await f.close();
  return {
    deliveries: a.events,
    succeeded: counts.succeeded - (a.warmup ?? 0),
    seconds,
    per_s: a.events / seconds,
    // CPU per delivery (all of the process's threads, and by thread) is steadier than wall time on a shared machine.
    cpu_us_per_delivery: split?.cpu_us_per_delivery ?? null,
    cpu_us_by_thread: split?.cpu_us_by_thread ?? null,
    loop_busy: elu,
    store_thread_busy: storeElu,
  };
}
