// "Several processes may share one PostgreSQL or Redis inbox": three worker processes run `inbox.start()` on one
// inbox; events are stored while they run; every handler's side effect is counted, and with no process dying each
// event runs exactly once, all of them done, the work spread over the processes.

import assert from 'node:assert/strict';
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { type TestContext, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import { ownChild } from '../../core/testing/children.ts';
// The shared test helpers (no imports of their own; the receiver package does not depend on the engine).
import { until, within } from '../../core/testing/deadline.ts';
import type { InboxEvent, InboxStore } from '../src/inbox/inbox-store.ts';
import { postgresInbox } from '../src/inbox/postgres-inbox.ts';
import { redisInbox } from '../src/inbox/redis-inbox.ts';
import { skipUnlessReachable } from './service-probe.ts';

const WORKERS = 3;
const EVENTS = 300;
const fixture = fileURLToPath(new URL('./fixtures/inbox-worker.ts', import.meta.url));
const host = '127.0.0.1';

async function startWorker(
  env: Record<string, string>,
  name: string,
  after: (fn: () => void) => void,
): Promise<ChildProcess> {
  const child = ownChild(
    fork(fixture, [], {
      execArgv: ['--conditions=source', '--import', 'tsx'],
      env: { ...process.env, ...env, INBOX_WORKER: name },
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    }),
    after,
  );
  const ready = new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => line.trim() === 'ready' && resolve());
    child.once('exit', (code, signal) =>
      reject(new Error(`worker ${name} exited before it was ready (${signal ?? code})`)),
    );
  });
  await within(`worker ${name} to start`, 60_000, ready);
  return child;
}

function event(i: number): InboxEvent {
  const eventId = `evt_mp_${String(i).padStart(4, '0')}`;
  return {
    eventId,
    type: 'order.shipped',
    deliveryId: `dlv_${i}`,
    scheme: 'hookline',
    headers: { 'x-webhook-id': eventId },
    body: Buffer.from(JSON.stringify({ i })),
    receivedAt: Date.now(),
  };
}

/**
 * Starts the workers, stores EVENTS events through `store` while they run, waits until every side effect landed and
 * every entry is done, stops the workers gracefully; returns runs per event and events per worker.
 */
async function shareOneInbox(
  t: TestContext,
  store: InboxStore,
  env: Record<string, string>,
  read: { runs(): Promise<Map<string, number>>; perWorker(): Promise<Record<string, number>> },
) {
  const workers: ChildProcess[] = [];
  try {
    for (let w = 1; w <= WORKERS; w++) workers.push(await startWorker(env, `w${w}`, t.after.bind(t)));
    const ids: string[] = [];
    for (let i = 0; i < EVENTS; i++) {
      const e = event(i);
      assert.deepEqual(await store.accept(e), { kind: 'accepted' });
      ids.push(e.eventId);
    }
    await until(
      async () => [...(await read.runs()).values()].reduce((s, n) => s + n, 0),
      (n) => n >= EVENTS,
      { what: `${EVENTS} side effects`, timeoutMs: 120_000, everyMs: 50 },
    );
    await until(
      async () => (await Promise.all(ids.map((id) => store.get(id)))).filter((e) => e?.state === 'done').length,
      (n) => n === EVENTS,
      { what: 'every entry done', timeoutMs: 60_000, everyMs: 100 },
    );
    for (const w of workers) w.kill('SIGTERM');
    for (const w of workers) {
      const [code, signal] =
        w.exitCode !== null || w.signalCode !== null
          ? [w.exitCode, w.signalCode]
          : await within('a worker to stop', 20_000, once(w, 'exit'));
      assert.deepEqual([code, signal], [0, null], 'each worker stopped gracefully: none died mid-handler');
    }
    const runs = await read.runs();
    const perWorker = await read.perWorker();
    t.diagnostic(`events per worker ${JSON.stringify(perWorker)}`);
    assert.deepEqual(
      ids.filter((id) => runs.get(id) !== 1).map((id) => `${id}: ${runs.get(id) ?? 0} runs`),
      [],
      'every event handled exactly once',
    );
    assert.equal(runs.size, EVENTS, 'no side effect for an event that was not stored');
    assert.equal(
      Object.values(perWorker).reduce((s, n) => s + n, 0),
      EVENTS,
    );
    assert.ok(
      Object.values(perWorker).filter((n) => n > 0).length >= 2,
      `the work was shared by the processes: ${JSON.stringify(perWorker)}`,
    );
  } finally {
    for (const w of workers) if (w.exitCode === null && w.signalCode === null) w.kill('SIGKILL');
  }
}

const pgSkip = await skipUnlessReachable('postgres', host, 5432);
const redisSkip = await skipUnlessReachable('redis', host, 6379);

test(`PostgreSQL: ${WORKERS} processes on one inbox, ${EVENTS} events, each handled exactly once`, {
  skip: pgSkip,
  // Three forked workers (60 s each to start), then up to 120 s for 300 side effects and 60 s for every entry done.
  timeout: 300_000,
}, async (t) => {
  const database = `hookline_receiver_mp_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ host, user: 'postgres', database: 'postgres' });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  const pool = new pg.Pool({ host, user: 'postgres', database, max: 4 });
  pool.on('error', () => {});
  try {
    const store = postgresInbox(pool);
    await store.get('create-the-table'); // the schema once, before the workers race to create it
    await pool.query(
      'CREATE TABLE side_effects (event_id TEXT PRIMARY KEY, runs INTEGER NOT NULL, workers TEXT NOT NULL)',
    );
    await shareOneInbox(
      t,
      store,
      { INBOX_BACKEND: 'postgres', INBOX_PG_DATABASE: database },
      {
        runs: async () =>
          new Map(
            (await pool.query<{ event_id: string; runs: number }>('SELECT event_id, runs FROM side_effects')).rows.map(
              (r) => [r.event_id, r.runs],
            ),
          ),
        perWorker: async () => {
          const out: Record<string, number> = {};
          for (const r of (await pool.query<{ workers: string }>('SELECT workers FROM side_effects')).rows)
            for (const w of r.workers.split(',')) out[w] = (out[w] ?? 0) + 1;
          return out;
        },
      },
    );
  } finally {
    await pool.end();
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
  }
});

test(`Redis: ${WORKERS} processes on one inbox, ${EVENTS} events, each handled exactly once`, {
  skip: redisSkip,
  // Three forked workers (60 s each to start), then up to 120 s for 300 side effects and 60 s for every entry done.
  timeout: 300_000,
}, async (t) => {
  const prefix = `{hookline:inbox:mp:${randomBytes(6).toString('hex')}}:`;
  const client = new Redis({ host, port: 6379, maxRetriesPerRequest: 1 });
  try {
    const store = redisInbox(client, { prefix });
    await shareOneInbox(
      t,
      store,
      { INBOX_BACKEND: 'redis', INBOX_REDIS_PREFIX: prefix },
      {
        runs: async () =>
          new Map(Object.entries(await client.hgetall(`${prefix}effects`)).map(([id, n]) => [id, Number(n)])),
        perWorker: async () => {
          const out: Record<string, number> = {};
          for (let w = 1; w <= WORKERS; w++) out[`w${w}`] = await client.llen(`${prefix}ran:w${w}`);
          return out;
        },
      },
    );
  } finally {
    const keys = await client.keys(`${prefix}*`);
    if (keys.length > 0) await client.del(...keys);
    await client.quit();
  }
});
