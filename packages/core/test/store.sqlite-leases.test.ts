// SQLite's leases live in memory on the store thread (docs/rules.md#sqlite-leases): a claim writes no row, yet every
// read shows a claimed delivery as delivering, a second claim never takes it, its key stays taken, and a restart
// (a new store on the same file) finds it due again at once.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { createHookline } from '../src/hookline.ts';
import { generateMasterKey } from '../src/secret-box.ts';
import { openSqliteThreadStore } from '../src/store/sqlite/sqlite-thread.ts';
import type { Store } from '../src/store/store.ts';
import { attemptOf, endpoint, H, newEvent, record, secret, T0, tenant } from '../testing/store-conformance/fixtures.ts';

async function withFile(fn: (path: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'hookline-leases-'));
  try {
    await fn(join(dir, 'h.db'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function seeded(path: string, over: Parameters<typeof endpoint>[2] = {}): Promise<Store> {
  const store = await openSqliteThreadStore(path);
  await store.catalog.createTenant(tenant('ten_A'));
  await store.catalog.createEndpoint(endpoint('ep_1', 'ten_A', over), secret('k1', 'ep_1'));
  return store;
}

/** The rows as the file has them, read by another connection. */
function rowStatuses(path: string): Record<string, string> {
  const db = new Database(path, { readonly: true });
  try {
    const rs = db.prepare('SELECT id, status, lease_until FROM deliveries').all() as Array<{
      id: string;
      status: string;
      lease_until: number | null;
    }>;
    for (const r of rs) assert.equal(r.lease_until, null, `${r.id}: no lease on the row`);
    return Object.fromEntries(rs.map((r) => [r.id, r.status]));
  } finally {
    db.close();
  }
}

const claim = (store: Store, workerId: string, limit = 10, now = T0) =>
  store.queue.claimDue({ now, limit, leaseUntil: now + H, workerId, saturatedEndpoints: [] });

test('a claimed delivery reads as delivering everywhere while no row says so; its record ends the lease', async () => {
  await withFile(async (path) => {
    const store = await seeded(path);
    try {
      await store.events.acceptEvents([newEvent('ten_A', 1, ['ep_1']), newEvent('ten_A', 2, ['ep_1'])]);
      const [c] = await claim(store, 'w1', 1);
      const id = c.delivery.id;
      assert.equal(c.delivery.status, 'delivering');
      assert.equal(c.delivery.leaseUntil, T0 + H);
      assert.deepEqual(rowStatuses(path), { [id]: 'pending', dlv_000002_0: 'pending' }, 'the claim wrote nothing');

      assert.equal((await store.reporting.getDelivery('ten_A', id))?.status, 'delivering');
      assert.equal((await store.reporting.getDelivery('ten_A', id))?.leaseUntil, T0 + H);
      const listed = await store.reporting.listDeliveries({ tenantId: 'ten_A', status: 'delivering' }, null, 10);
      assert.deepEqual(
        listed.items.map((d) => d.id),
        [id],
      );
      const pending = await store.reporting.listDeliveries({ tenantId: 'ten_A', status: 'pending' }, null, 10);
      assert.deepEqual(
        pending.items.map((d) => d.id),
        ['dlv_000002_0'],
      );
      assert.equal((await store.events.getEvent('ten_A', 'e-1'))?.deliveries[0].status, 'delivering');
      const [again] = await store.events.acceptEvents([newEvent('ten_A', 1, ['ep_1'])]);
      assert.equal(again.kind === 'existing' && again.deliveries[0].status, 'delivering', 'posted again: in flight');
      assert.equal((await store.reporting.countByStatus()).delivering, 1);
      assert.equal((await store.reporting.countByStatus()).pending, 1);
      assert.deepEqual(await store.reporting.countQueued(), { pending: 1, delivering: 1, held: 0 });
      const [stats] = await store.reporting.endpointStats('ten_A', T0 - H, T0);
      assert.deepEqual(stats.queued, { pending: 1, delivering: 1, held: 0 });
      assert.equal(await store.queue.countInFlight('ep_1'), 1);
      assert.equal(await store.reporting.oldestDueAt(T0), T0, 'the other one still waits');

      const second = await claim(store, 'w1', 10);
      assert.deepEqual(
        second.map((x) => x.delivery.id),
        ['dlv_000002_0'],
        'a leased delivery is not claimed again',
      );
      assert.equal(await store.queue.nextDueAt(), null, 'nothing waits: both are in flight');

      await store.queue.recordAttempts(
        [record(attemptOf(id, 'ten_A', 'ep_1', 1, T0 + 10, 'success'), 'w1', { status: 'succeeded' })],
        T0 + 20,
      );
      assert.equal((await store.reporting.getDelivery('ten_A', id))?.status, 'succeeded');
      assert.equal((await store.reporting.countByStatus()).delivering, 1);
      assert.equal(await store.queue.countInFlight('ep_1'), 1);
      // Recorded again (a commit whose outcome was lost): the lease is gone, nothing changes.
      await store.queue.recordAttempts(
        [record(attemptOf(id, 'ten_A', 'ep_1', 1, T0 + 10, 'success'), 'w1', { status: 'succeeded' })],
        T0 + 30,
      );
      assert.equal((await store.reporting.listAttempts(id)).length, 1);
    } finally {
      await store.close();
    }
  });
});

test('a record by a worker that does not hold the lease keeps only its attempt', async () => {
  await withFile(async (path) => {
    const store = await seeded(path);
    try {
      await store.events.acceptEvents([newEvent('ten_A', 1, ['ep_1'])]);
      const [c] = await claim(store, 'w1', 1);
      await store.queue.recordAttempts(
        [record(attemptOf(c.delivery.id, 'ten_A', 'ep_1', 1, T0 + 10, 'success'), 'w2', { status: 'succeeded' })],
        T0 + 20,
      );
      assert.equal(
        (await store.reporting.getDelivery('ten_A', c.delivery.id))?.status,
        'delivering',
        "w1's lease stands",
      );
      assert.equal((await store.reporting.listAttempts(c.delivery.id)).length, 1);
    } finally {
      await store.close();
    }
  });
});

test('a restart hands every lease back: the new store finds the delivery due at once', async () => {
  await withFile(async (path) => {
    const first = await seeded(path);
    await first.events.acceptEvents([newEvent('ten_A', 1, ['ep_1'])]);
    const [c] = await claim(first, 'w1', 1);
    assert.ok(c);
    await first.close(); // the owner process is gone, and its leases with it
    assert.deepEqual(rowStatuses(path), { [c.delivery.id]: 'pending' });

    const second = await openSqliteThreadStore(path);
    try {
      assert.equal((await second.reporting.getDelivery('ten_A', c.delivery.id))?.status, 'pending');
      assert.equal(await second.queue.nextDueAt(), T0);
      const again = await claim(second, 'w2', 10);
      assert.deepEqual(
        again.map((x) => x.delivery.id),
        [c.delivery.id],
      );
    } finally {
      await second.close();
    }
  });
});

test('a key with a delivery leased in memory is not free: its next waits until the head ends', async () => {
  await withFile(async (path) => {
    const store = await seeded(path, { ordering: 'key' });
    try {
      const keyed = (n: number) => ({
        ...newEvent('ten_A', n, ['ep_1']),
        deliveries: newEvent('ten_A', n, ['ep_1']).deliveries.map((d) => ({ ...d, orderingKey: 'k' })),
      });
      await store.events.acceptEvents([keyed(1), keyed(2)]);
      const [head] = await claim(store, 'w1', 10);
      assert.equal(head.delivery.orderingSeq, 1);
      assert.deepEqual(await claim(store, 'w1', 10), [], 'the next of the key waits for the head in flight');
      assert.deepEqual(await store.queue.findKeyHead('ep_1', 'k'), { id: head.delivery.id, status: 'delivering' });
      await store.queue.recordAttempts(
        [
          record(attemptOf(head.delivery.id, 'ten_A', 'ep_1', 1, T0 + 10, 'success'), 'w1', {
            status: 'succeeded',
          }),
        ],
        T0 + 20,
      );
      const [next] = await claim(store, 'w1', 10, T0 + 20);
      assert.equal(next.delivery.orderingSeq, 2, 'the head ended: the next is due and claimed');
    } finally {
      await store.close();
    }
  });
});

test('a worker ends, holds and hands back only what it holds; an expired lease is due again', async () => {
  await withFile(async (path) => {
    const store = await seeded(path);
    try {
      await store.events.acceptEvents([1, 2, 3].map((n) => newEvent('ten_A', n, ['ep_1'])));
      const [a, b, c] = (await claim(store, 'w1', 3)).map((x) => x.delivery.id);
      await store.queue.endDeliveries([a], 'w2', 'failed', 'not w2s', T0);
      assert.equal((await store.reporting.getDelivery('ten_A', a))?.status, 'delivering');
      await store.queue.endDeliveries([a], 'w1', 'failed', 'age', T0);
      assert.equal((await store.reporting.getDelivery('ten_A', a))?.status, 'failed');
      await store.queue.holdDeliveries([b], 'w1', T0 + H, T0);
      assert.equal((await store.reporting.getDelivery('ten_A', b))?.status, 'held');
      assert.equal(await store.queue.releaseLeases([c], 'w2', T0), 0);
      assert.equal(await store.queue.releaseLeases([c], 'w1', T0), 1);
      assert.equal((await store.reporting.getDelivery('ten_A', c))?.status, 'pending');
      const [again] = await claim(store, 'w1', 3);
      assert.equal(again.delivery.id, c);
      assert.equal(await store.queue.releaseExpiredLeases(T0 + H - 1), 0);
      assert.equal(await store.queue.releaseExpiredLeases(T0 + H + 1), 1);
      assert.deepEqual(
        (await claim(store, 'w2', 3, T0 + H + 1)).map((x) => x.delivery.id).sort(),
        [b, c].sort(),
        'the expired one and the held one (due) are claimed again',
      );
    } finally {
      await store.close();
    }
  });
});

test('retry now refuses a delivery leased in memory as in flight, and the engine shows it delivering', async () => {
  await withFile(async (path) => {
    const store = await seeded(path);
    const engine = createHookline({
      store,
      masterKey: generateMasterKey(),
      allowHttp: true,
      allowPrivateTargets: true,
    });
    try {
      await store.events.acceptEvents([newEvent('ten_A', 1, ['ep_1'])]);
      const [c] = await claim(store, 'w1', 1);
      assert.equal((await engine.deliveries.detail('ten_A', c.delivery.id)).delivery.status, 'delivering');
      await assert.rejects(engine.deliveries.retry('ten_A', c.delivery.id), { code: 'delivery_in_flight' });
    } finally {
      await engine.stop();
      await store.close();
    }
  });
});
