// Crash safety: a dispatcher killed with SIGKILL mid-flight loses nothing; after restart every event ends terminal,
// and only the attempts that were in flight at the kill are repeated.

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
import { H } from '../testing/time.ts';

const worker = fileURLToPath(new URL('./fixtures/crash-worker.ts', import.meta.url));
const EVENTS = 1500;
const KILL_AFTER = 400;

// Each worker is killed when the test ends, even when it failed or timed out, so the file can never hang the run.
function startWorker(db: string, key: string, after: (fn: () => void) => void, leaseMs?: number): ChildProcess {
  const args = leaseMs === undefined ? [db, key] : [db, key, String(leaseMs)];
  return ownChild(
    fork(worker, args, {
      execArgv: ['--conditions=source', '--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    }),
    after,
  );
}

test('SIGKILL mid-flight: after restart every delivery succeeds, duplicates only for in-flight attempts', {
  // 1,500 events through a forked worker killed after 400 sends, then a restarted worker drains (up to 150 s).
  timeout: 240_000,
}, async (t) => {
  const seen = new Map<string, number>();
  let killAt: (() => void) | null = null;
  const receiver = await startReceiver((total, req) => {
    const id = String(req.headers['x-webhook-delivery']);
    seen.set(id, (seen.get(id) ?? 0) + 1);
    if (total === KILL_AFTER) killAt?.();
    // A little latency keeps many attempts in flight when the kill lands.
    return new Promise<number>((r) => setTimeout(() => r(200), 5));
  });
  const url = receiver.url;

  const temp = await tempStore();
  const key = generateMasterKey();
  const children: ChildProcess[] = [];
  const engine = createHookline({ store: temp.store, masterKey: key, allowHttp: true, allowPrivateTargets: true });
  try {
    const now = Date.now();
    await testTenant(temp.store, {
      id: 'ten_CRASH',
      at: now,
      fields: { name: 'crash', ownerEmails: [], notifyEmail: false },
    });
    // A short timeout: the workers run with a 1 s lease so the restarted one takes over quickly (the deadlines below
    // are ceilings that turn a hang into a failure; a loaded machine can take tens of seconds here).
    await engine.endpoints.create('ten_CRASH', { url, policy: 'standard', max_concurrency: 50, timeout_ms: 500 });
    const inputs = Array.from({ length: EVENTS }, (_, i) => ({
      event_id: `e${i}`,
      type: 'order.created',
      data: { i, pad: 'x'.repeat(200) },
    }));
    await engine.events.acceptMany('ten_CRASH', inputs);

    const first = startWorker(temp.path, key, t.after.bind(t));
    children.push(first);
    const firstExit = once(first, 'exit');
    const killed = new Promise<void>((resolve) => {
      killAt = () => {
        first.kill('SIGKILL');
        resolve();
      };
    });
    await within(
      `the receiver to see ${KILL_AFTER} requests from the first worker`,
      60_000,
      Promise.race([killed, firstExit.then(() => assert.fail('the first worker exited before the kill'))]),
    );
    const [, signal] = await within('the killed worker to exit', 10_000, firstExit);
    assert.equal(signal, 'SIGKILL');
    // In flight at the kill: sent (the receiver saw it more often than it has recorded attempts) and not recorded. A
    // SQLite file keeps no lease of the dead worker to read back (docs/rules.md#sqlite-leases).
    const inFlight = new Set<string>();
    for (const [id, n] of [...seen]) if (n > (await temp.store.reporting.listAttempts(id)).length) inFlight.add(id);
    assert.ok(inFlight.size > 0, 'the kill should land while attempts are in flight');

    const second = startWorker(temp.path, key, t.after.bind(t));
    children.push(second);
    const [code] = await within('the restarted worker to drain the database and exit', 150_000, once(second, 'exit'));
    assert.equal(code, 0);

    const counts = await temp.store.reporting.countByStatus();
    assert.equal(counts.succeeded, EVENTS, JSON.stringify(counts));
    assert.equal(seen.size, EVENTS, 'every delivery reached the receiver');
    // Every request the receiver saw is a recorded attempt, except at most one per delivery in flight at the kill.
    // (A repeat after a recorded failure is an ordinary retry: on a loaded machine a 5 ms answer can miss the
    // 500 ms deadline. Counting recorded attempts keeps the check exact whatever the machine's speed.)
    const unrecorded: string[] = [];
    for (const [id, n] of seen) {
      const recorded = (await temp.store.reporting.listAttempts(id)).length;
      if (n > recorded + (inFlight.has(id) ? 1 : 0))
        unrecorded.push(
          `${id}: ${n} requests, ${recorded} recorded attempts, ${inFlight.has(id) ? '' : 'not '}in flight at the kill`,
        );
    }
    assert.deepEqual(unrecorded, [], 'requests repeated without a recorded attempt or an in-flight lease');
  } finally {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await receiver.close();
    await temp.cleanup();
  }
});

test('a restarted SQLite worker re-sends what its killed predecessor held at once, not after the lease', {
  timeout: 60_000,
}, async (t) => {
  // An hour's lease: the restarted worker can only finish within this test by taking the orphaned leases itself.
  const seen = new Map<string, number>();
  let killAt: (() => void) | null = null;
  const receiver = await startReceiver((_n, req) => {
    const id = String(req.headers['x-webhook-delivery']);
    seen.set(id, (seen.get(id) ?? 0) + 1);
    if (seen.size === 100) killAt?.();
    return new Promise<number>((r) => setTimeout(() => r(200), 5));
  });
  const url = receiver.url;
  const temp = await tempStore();
  const key = generateMasterKey();
  const children: ChildProcess[] = [];
  const engine = createHookline({ store: temp.store, masterKey: key, allowHttp: true, allowPrivateTargets: true });
  try {
    const now = Date.now();
    await testTenant(temp.store, {
      id: 'ten_RESTART',
      at: now,
      fields: { name: 'restart', ownerEmails: [], notifyEmail: false },
    });
    await engine.endpoints.create('ten_RESTART', { url, policy: 'standard', max_concurrency: 20, timeout_ms: 2000 });
    await engine.events.acceptMany(
      'ten_RESTART',
      Array.from({ length: 400 }, (_, i) => ({ event_id: `r${i}`, type: 'order.created', data: { i } })),
    );
    const first = startWorker(temp.path, key, t.after.bind(t), H);
    children.push(first);
    await new Promise<void>((resolve) => {
      killAt = () => {
        first.kill('SIGKILL');
        resolve();
      };
    });
    await once(first, 'exit');
    // What the killed worker held: sent, never recorded. Its leases were in memory and died with it: no row says
    // delivering (docs/rules.md#sqlite-leases), so nothing waits for a lease to expire.
    const held: Array<{ id: string }> = [];
    for (const id of seen.keys()) if ((await temp.store.reporting.listAttempts(id)).length === 0) held.push({ id });
    assert.ok(held.length > 0, 'the killed worker held leases');
    assert.equal((await temp.store.reporting.countByStatus()).delivering, 0, 'no lease is left on the file');

    const second = startWorker(temp.path, key, t.after.bind(t), H);
    children.push(second);
    const [code] = await once(second, 'exit');
    assert.equal(code, 0);
    assert.equal((await temp.store.reporting.countByStatus()).succeeded, 400);
    for (const d of held) assert.ok(seen.has(d.id), `${d.id} was sent`);
    assert.equal((await temp.store.reporting.getDelivery('ten_RESTART', held[0].id))?.status, 'succeeded');
  } finally {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await receiver.close();
    await temp.cleanup();
  }
});
