// An engine over a fresh temp SQLite file, one tenant, 1 KB events: what every engine scenario starts from.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createHookline,
  type EventInput,
  generateMasterKey,
  type Hookline,
  type HooklineOptions,
  openSqliteThreadStore,
  type Store,
} from '@hookline/core';

export const TENANT = 'ten_BENCH';

/** Event data padded so the envelope the engine builds is `bytes` long (1 KB by default). */
export function eventInput(i: number, type = 'bench.event', bytes = 1024): EventInput {
  const base = {
    event_id: `evt_bench_${String(i).padStart(8, '0')}`,
    type,
    version: '1',
    occurred_at: '2026-01-05T12:00:00.000Z',
    data: { seq: i, pad: '' },
  };
  const len = Buffer.byteLength(JSON.stringify(base));
  base.data.pad = 'x'.repeat(Math.max(0, bytes - len));
  return base;
}

/** A standalone 1 KB envelope, for the comparison clients that do not go through the engine. */
export function envelope(i: number, bytes = 1024): Buffer {
  return Buffer.from(JSON.stringify(eventInput(i, 'bench.event', bytes)));
}

export interface EngineFixture {
  engine: Hookline;
  store: Store;
  dir: string;
  path: string;
  close(): Promise<void>;
}

export async function engineFixture(
  options: Partial<HooklineOptions> = {},
  dir = mkdtempSync(join(tmpdir(), 'hookline-bench-')),
): Promise<EngineFixture> {
  const path = join(dir, 'hookline.db');
  // As `hookline serve` runs it: the connection on a store thread, a checkpointer thread beside it.
  const store = options.store ?? (await openSqliteThreadStore(path));
  const engine = createHookline({
    masterKey: generateMasterKey(),
    allowHttp: true,
    allowPrivateTargets: true,
    ...options,
    dispatcher: { logAttempts: false, ...options.dispatcher },
    store,
  });
  if (!(await store.catalog.getTenant(TENANT))) {
    const now = Date.now();
    await store.catalog.createTenant({
      id: TENANT,
      name: 'Bench',
      ownerEmails: ['bench@example.test'],
      operationsEndpointId: null,
      notifyEmail: false,
      createdAt: now,
      updatedAt: now,
    });
  }
  return {
    engine,
    store,
    dir,
    path,
    async close() {
      await engine.stop();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Accepts `count` events (numbered from `from`) in group commits of 1,000, as the batch API would. */
export async function acceptBacklog(engine: Hookline, count: number, from = 0, type = 'bench.event'): Promise<void> {
  for (let i = 0; i < count; i += 1000) {
    const batch: EventInput[] = [];
    for (let j = i; j < Math.min(count, i + 1000); j++) batch.push(eventInput(from + j, type));
    await engine.events.acceptMany(TENANT, batch);
  }
}

/** Counts deliveries that reached a terminal state (their attempt committed), as an observer. */
export function terminalCounter(engine: Hookline, filter: (endpointId: string) => boolean = () => true) {
  let done = 0;
  let waiter: { n: number; resolve: () => void } | null = null;
  engine.addObserver({
    attempt(e) {
      if (e.next.status === 'pending' || !filter(e.attempt.endpointId)) return;
      done++;
      if (waiter && done >= waiter.n) waiter.resolve();
    },
  });
  return {
    get done() {
      return done;
    },
    /** Resolves once `n` have finished in all (counting from the counter's creation). */
    until(n: number, timeoutMs: number): Promise<void> {
      if (done >= n) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`only ${done}/${n} deliveries finished within ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiter = { n, resolve: () => (clearTimeout(timer), (waiter = null), resolve()) };
      });
    },
  };
}
