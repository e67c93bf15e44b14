// Ordered delivery across processes (docs/rules.md#ordered-claim): three worker processes on one PostgreSQL database,
// one ordered endpoint, a receiver that watches every key. Never two requests of one key in flight, never a later event
// of a key before an earlier one, also after a worker is SIGKILLed while it holds a key's head.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { createHookline } from '../src/hookline.ts';
import { PolicyRegistry } from '../src/policy/registry.ts';
import { generateMasterKey } from '../src/secret-box.ts';
import { openPostgresStore } from '../src/store/postgres/postgres-store.ts';
import { until, within } from '../testing/deadline.ts';
import { adminQuery, pgTestDb, withDatabase } from './fixtures/pg-test-db.ts';
import { startPgWorker } from './fixtures/pg-worker-process.ts';

const KEYS = 30;
const PER_KEY = 20;
const EVENTS = KEYS * PER_KEY;
const CAP = 8;
const LEASE_MS = 3000;
const POLICIES = [
  {
    name: 'ord-fast',
    extends: 'standard',
    jitter: 0,
    timeout: '5s',
    fast: { delays: ['50ms', '100ms'], repeatLast: true, maxFailures: 50 },
  },
];

const pgDb = await pgTestDb();

test(`3 workers on one database: ${KEYS} keys × ${PER_KEY} events in strict per-key order, one key in flight at a time, a worker SIGKILLed holding a head`, {
  skip: pgDb.skip ?? false,
  // Three worker processes send 600 ordered events one key head at a time, one is SIGKILLed: up to 240 s to finish.
  timeout: 300_000,
}, async (t) => {
  const dbName = `hookline_ord_${process.pid}_${Date.now().toString(36)}`;
  await adminQuery(pgDb.url!, `CREATE DATABASE ${dbName}`);
  const url = withDatabase(pgDb.url!, dbName);
  const masterKey = generateMasterKey();
  const store = await openPostgresStore(url, { poolMax: 4 });
  const api = createHookline({
    store,
    masterKey,
    policies: PolicyRegistry.fromConfig(POLICIES),
    allowHttp: true,
    allowPrivateTargets: true,
    maintenance: { enabled: false },
  });

  // The receiver: per key, what is in flight now and the highest n that arrived; any arrival below it is a violation.
  const inFlight = new Map<string, number>();
  const highest = new Map<string, number>();
  const delivered = new Map<string, number[]>();
  const violations: string[] = [];
  let current = 0;
  let maxConcurrent = 0;
  const firstTry = new Set<string>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const { data } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { key: string; n: number } };
      const { key, n } = data;
      current++;
      maxConcurrent = Math.max(maxConcurrent, current);
      const flying = (inFlight.get(key) ?? 0) + 1;
      inFlight.set(key, flying);
      if (flying > 1) violations.push(`${key}: ${flying} requests in flight at once (n=${n})`);
      if (n < (highest.get(key) ?? 0)) violations.push(`${key}: n=${n} arrived after n=${highest.get(key)}`);
      highest.set(key, Math.max(highest.get(key) ?? 0, n));
      // Every 7th event fails its first attempt: its key must wait through the retry.
      const fails = n % 7 === 0 && !firstTry.has(`${key}/${n}`);
      firstTry.add(`${key}/${n}`);
      setTimeout(() => {
        current--;
        inFlight.set(key, inFlight.get(key)! - 1);
        if (!fails) delivered.set(key, [...(delivered.get(key) ?? []), n]);
        if (!res.destroyed) res.writeHead(fails ? 500 : 200).end('ok');
      }, 15);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const workers: ChildProcess[] = [];
  const results: Record<string, unknown> = {};
  try {
    const tenantId = 'ten_ORD';
    const now = Date.now();
    await store.catalog.createTenant({
      id: tenantId,
      name: 'ORD',
      ownerEmails: [],
      operationsEndpointId: null,
      notifyEmail: false,
      createdAt: now,
      updatedAt: now,
    });
    await api.endpoints.create(tenantId, {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/ord`,
      policy: 'ord-fast',
      max_concurrency: CAP,
      ordering: 'key',
    });
    for (let i = 1; i <= 3; i++)
      workers.push(
        await startPgWorker(
          { url, workerId: `wrk_${i}`, masterKey, policies: POLICIES, leaseMs: LEASE_MS },
          t.after.bind(t),
        ),
      );

    // Round by round, every key's next event: the keys interleave, each key's events are accepted in n order.
    const killDone = (async () => {
      await until(
        async () =>
          Number(
            (
              await store.pg.pool.query(
                `SELECT count(*) AS n FROM deliveries WHERE status = 'delivering' AND leased_by = 'wrk_2' AND ordering_key IS NOT NULL`,
              )
            ).rows[0].n,
          ) > 0,
        Boolean,
        { what: 'worker 2 holding the head of a key', timeoutMs: 120_000, everyMs: 5 },
      );
      const exited = once(workers[1], 'exit');
      workers[1].kill('SIGKILL');
      await within('the SIGKILLed worker to exit', 10_000, exited);
      const held = await store.pg.pool.query(
        `SELECT id, ordering_key, ordering_seq FROM deliveries WHERE status = 'delivering' AND leased_by = 'wrk_2'`,
      );
      results.headsHeldByKilledWorker = held.rowCount;
      return held.rows as Array<{ id: string; ordering_key: string }>;
    })();
    killDone.catch(() => {});
    for (let n = 1; n <= PER_KEY; n++) {
      const batch = Array.from({ length: KEYS }, (_, k) => ({
        event_id: `k${k}-${n}`,
        type: 'thing.changed',
        ordering_key: `k${k}`,
        data: { key: `k${k}`, n },
      }));
      const out = await api.events.acceptMany(tenantId, batch);
      const bad = out.find((r) => r instanceof Error);
      if (bad) throw bad;
    }
    const killedHeads = await killDone;
    assert.ok(killedHeads.length > 0, "the killed worker held a key's head when it died");

    await until(
      async () =>
        Number(
          (await store.pg.pool.query(`SELECT count(*) AS n FROM deliveries WHERE status = 'succeeded'`)).rows[0].n,
        ) === EVENTS,
      Boolean,
      { what: 'every delivery succeeded', timeoutMs: 240_000, everyMs: 100 },
    );
    assert.deepEqual(violations, []);
    // Each key's successful arrivals are exactly 1..PER_KEY in order, except that a head whose worker died may arrive
    // twice in a row (at least once: its answer was lost with the worker, so it is sent again after its lease expired).
    for (let k = 0; k < KEYS; k++) {
      const got = delivered.get(`k${k}`) ?? [];
      const distinct = got.filter((n, i) => i === 0 || got[i - 1] !== n);
      assert.deepEqual(
        distinct,
        Array.from({ length: PER_KEY }, (_, i) => i + 1),
        `key k${k}: ${got.join(',')}`,
      );
    }
    // The killed worker's heads were taken over only after their leases expired, and went through.
    for (const h of killedHeads)
      assert.equal(
        (await store.pg.pool.query(`SELECT status FROM deliveries WHERE id = $1`, [h.id])).rows[0].status,
        'succeeded',
      );
    // The endpoint's cap holds across workers and keys.
    assert.ok(maxConcurrent <= CAP, `${maxConcurrent} concurrent requests, cap ${CAP}`);
    results.maxConcurrent = maxConcurrent;
    results.redelivered = [...delivered.values()].reduce((s, l) => s + l.length, 0) - EVENTS;
  } finally {
    console.log(`# ordering multiprocess: ${JSON.stringify(results)}`);
    for (const w of workers) if (w.exitCode === null && w.signalCode === null) w.kill('SIGKILL');
    await api.stop();
    await store.close();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await adminQuery(pgDb.url!, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
    await pgDb.cleanup();
  }
});
