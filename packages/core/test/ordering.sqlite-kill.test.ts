// Ordered delivery on SQLite across a crash (docs/rules.md#ordered-claim): a worker process dispatching an ordered
// endpoint is SIGKILLed while a key's head is on the wire; after a restart that key goes on in order — its head is
// sent again and no later delivery of the key is attempted before the head has succeeded. The PostgreSQL equivalent
// is ordering.postgres.test.ts.

import assert from 'node:assert/strict';
import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createHookline } from '../src/hookline.ts';
import { generateMasterKey } from '../src/secret-box.ts';
import { ownChild } from '../testing/children.ts';
import { within } from '../testing/deadline.ts';
import { tempStore, testTenant } from '../testing/harness.ts';
import { startReceiver } from '../testing/receiver.ts';

const worker = fileURLToPath(new URL('./fixtures/crash-worker.ts', import.meta.url));
const KEYS = 10;
const PER_KEY = 6;
const EVENTS = KEYS * PER_KEY;
/** The key whose head hangs on the wire when the worker is killed. */
const STUCK = 'k3';
/** Long: only the restart (which takes its own orphaned leases at once on SQLite) can free the stuck head in time. */
const LEASE_MS = 10 * 60_000;

function startWorker(db: string, key: string, after: (fn: () => void) => void): ChildProcess {
  return ownChild(
    fork(worker, [db, key, String(LEASE_MS)], {
      execArgv: ['--conditions=source', '--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    }),
    after,
  );
}

test("SQLite: a worker SIGKILLed while a key's head is in flight; after a restart the head is re-sent and the key goes on in order", {
  // A worker process caught with a head in flight (up to 120 s), SIGKILLed, then a restarted one drains the file.
  timeout: 240_000,
}, async (t) => {
  // Per key: the n of every request in arrival order, what is in flight now, and any violation seen.
  const arrivals = new Map<string, number[]>();
  const inFlight = new Map<string, number>();
  const succeeded = new Map<string, number[]>();
  const violations: string[] = [];
  let headOnWire!: () => void;
  const headSent = new Promise<void>((r) => (headOnWire = r));
  let killed = false;
  const receiver = await startReceiver((_n, req) => {
    const { data } = JSON.parse(req.body.toString('utf8')) as { data: { key: string; n: number } };
    const { key, n } = data;
    const before = arrivals.get(key) ?? [];
    // Never a later event of the key before every earlier one has succeeded; never two of the key at once.
    const done = succeeded.get(key) ?? [];
    if (n > 1 && !done.includes(n - 1))
      violations.push(`${key}: n=${n} attempted before n=${n - 1} succeeded (arrivals ${before.join(',')})`);
    if ((inFlight.get(key) ?? 0) > 0) violations.push(`${key}: n=${n} while another request of the key was in flight`);
    arrivals.set(key, [...before, n]);
    // The stuck key's head hangs on its first try, until the worker dies and its connection with it.
    if (key === STUCK && n === 1 && !killed) {
      headOnWire();
      return 'hang';
    }
    inFlight.set(key, (inFlight.get(key) ?? 0) + 1);
    const finish = () => inFlight.set(key, inFlight.get(key)! - 1);
    return new Promise<number>((r) =>
      setTimeout(() => {
        finish();
        succeeded.set(key, [...done, n]);
        r(200);
      }, 10),
    );
  });

  const temp = await tempStore();
  const masterKey = generateMasterKey();
  const engine = createHookline({
    store: temp.store,
    masterKey,
    allowHttp: true,
    allowPrivateTargets: true,
    maintenance: { enabled: false },
  });
  try {
    const now = Date.now();
    await testTenant(temp.store, {
      id: 'ten_ORD',
      at: now,
      fields: { name: 'ord', ownerEmails: [], notifyEmail: false },
    });
    await engine.endpoints.create('ten_ORD', {
      url: receiver.url,
      policy: 'standard',
      max_concurrency: 4,
      ordering: 'key',
    });
    // Round by round, each key's next event: the keys interleave; within a key the events are accepted in n order.
    for (let n = 1; n <= PER_KEY; n++) {
      const out = await engine.events.acceptMany(
        'ten_ORD',
        Array.from({ length: KEYS }, (_, k) => ({
          event_id: `k${k}-${n}`,
          type: 'thing.changed',
          ordering_key: `k${k}`,
          data: { key: `k${k}`, n },
        })),
      );
      for (const r of out) assert.ok(!(r instanceof Error), String(r));
    }

    const first = startWorker(temp.path, masterKey, t.after.bind(t));
    const firstExit = once(first, 'exit');
    await within(
      `the head of ${STUCK} on the wire`,
      120_000,
      Promise.race([headSent, firstExit.then(() => assert.fail('the first worker exited before the kill'))]),
    );
    killed = true;
    first.kill('SIGKILL');
    const [, signal] = await within('the killed worker to exit', 10_000, firstExit);
    assert.equal(signal, 'SIGKILL');
    assert.deepEqual(arrivals.get(STUCK), [1], `${STUCK}: only its head was attempted before the kill`);
    // The dead worker's lease of the head was in memory and died with it (docs/rules.md#sqlite-leases): the head's row
    // is pending, unattempted, and the rest of the key waits behind it.
    const stuck = (
      await temp.store.reporting.listDeliveries({ tenantId: 'ten_ORD', status: 'pending' }, null, 1000)
    ).items
      .filter((d) => d.orderingKey === STUCK)
      .sort((a, b) => a.orderingSeq! - b.orderingSeq!);
    assert.deepEqual(
      stuck.map((d) => d.orderingSeq),
      Array.from({ length: PER_KEY }, (_, i) => i + 1),
      `${STUCK}: its head and everything after it wait`,
    );
    assert.equal(stuck[0].attemptCount, 0, `${STUCK}: the head's attempt was never recorded`);
    assert.ok(
      stuck.slice(1).every((d) => d.nextAttemptAt === null),
      `${STUCK}: everything after the head waits`,
    );

    const second = startWorker(temp.path, masterKey, t.after.bind(t));
    const [code] = await within('the restarted worker to drain the database and exit', 180_000, once(second, 'exit'));
    assert.equal(code, 0);

    assert.deepEqual(violations, []);
    const counts = await temp.store.reporting.countByStatus();
    assert.equal(counts.succeeded, EVENTS, JSON.stringify(counts));
    const all = Array.from({ length: PER_KEY }, (_, i) => i + 1);
    // The stuck key: its head twice (lost with the worker, then re-sent), then the rest in order, once each.
    assert.deepEqual(arrivals.get(STUCK), [1, ...all], `${STUCK}: ${arrivals.get(STUCK)!.join(',')}`);
    // Every other key: in order; a head that was on the wire at the kill may repeat once in place.
    for (let k = 0; k < KEYS; k++) {
      const got = arrivals.get(`k${k}`) ?? [];
      const distinct = got.filter((n, i) => i === 0 || got[i - 1] !== n);
      assert.deepEqual(distinct, all, `k${k}: ${got.join(',')}`);
    }
  } finally {
    await engine.stop();
    await receiver.close();
    await temp.cleanup();
  }
});
