import assert from 'node:assert/strict';
import { fstatSync, mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { endpoint, newEvent, secret, T0, tenant } from '../../../testing/store-conformance/fixtures.ts';
import { MIN } from '../../../testing/time.ts';
import type { Store } from '../store.ts';
import { SqliteDriver, type SqliteOptions } from './sqlite-driver.ts';
import { sqliteStore } from './sqlite-store.ts';

async function withDriver(
  options: SqliteOptions,
  fn: (d: SqliteDriver, dir: string) => Promise<void>,
  path?: (dir: string) => string,
) {
  const dir = mkdtempSync(join(tmpdir(), 'hookline-driver-'));
  const d = new SqliteDriver(path ? path(dir) : join(dir, 'h.db'), options);
  try {
    await d.migrate();
    await fn(d, dir);
  } finally {
    await d.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** An fsync that, once closed, waits at a gate: the test decides when each fsync may finish. */
function gatedFsync() {
  const entered: Array<() => void> = [];
  let gate: Promise<void> | null = null;
  let open = () => {};
  const log: string[] = [];
  return {
    log,
    fsync: async (_fd: number) => {
      if (!gate) return;
      log.push('fsync started');
      for (const e of entered.splice(0)) e();
      await gate;
      log.push('fsync done');
    },
    close() {
      gate = new Promise<void>((r) => (open = r));
    },
    /** Resolves once an fsync is waiting at the gate (with a deadline). */
    waiting: () =>
      new Promise<void>((resolve, reject) => {
        const t = setTimeout(() => reject(new Error('no fsync started within 10 s')), 10_000);
        entered.push(() => (clearTimeout(t), resolve()));
      }),
    /** Opens the gate for good (cleanup after a failed assertion). */
    dispose() {
      gate = null;
      open();
    },
    /** Lets the waiting fsync finish; the next one waits again. */
    release() {
      open();
      gate = new Promise<void>((r) => (open = r));
    },
  };
}

/** A few turns of the event loop: long enough for a write that does not wait for its fsync to settle. */
async function turns(n = 20) {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
}

test('no durable write resolves before the fsync of its WAL has completed (statement and transaction)', async () => {
  const gate = gatedFsync();
  await withDriver({ walFsync: gate.fsync }, async (d) => {
    const store = sqliteStore(d);
    await store.catalog.setSetting('warm', 'x'); // opens the WAL (and syncs its directory) with the gate still open
    gate.close();
    for (const [what, write] of [
      ['a statement', () => store.catalog.setSetting('k', 'v1')],
      [
        'a transaction',
        () => d.transaction(async (tx) => void (await tx.run('set-setting', { key: 'k', value: 'v2' }))),
      ],
    ] as const) {
      const entered = gate.waiting();
      let settled = false;
      const p = write().then(() => {
        settled = true;
        gate.log.push('resolved');
      });
      await entered;
      await turns();
      assert.equal(settled, false, `${what} resolved while its fsync was still running`);
      gate.release();
      await p;
      assert.deepEqual(gate.log.slice(-3), ['fsync started', 'fsync done', 'resolved'], what);
    }
    // A commit that wrote nothing has nothing to wait for.
    const before = gate.log.length;
    await d.transaction(async (tx) => void (await tx.all('get-setting', { key: 'k' })));
    assert.equal(gate.log.length, before);
  });
});

test('a claim never returns a delivery whose accepting commit is still being fsynced (nothing sent before its 202)', async () => {
  const gate = gatedFsync();
  await withDriver({ walFsync: gate.fsync }, async (d) => {
    const store = sqliteStore(d);
    await store.catalog.createTenant(tenant('ten_A'));
    await store.catalog.createEndpoint(endpoint('ep_1', 'ten_A'), secret('sec_1', 'ep_1'));
    gate.close();
    const entered = gate.waiting();
    let accepted = false;
    const accept = store.events.acceptEvents([newEvent('ten_A', 1, ['ep_1'])]).then((r) => {
      accepted = true;
      gate.log.push('accepted');
      return r;
    });
    await entered; // the accepting commit is in the WAL, its fsync is held at the gate: no 202 yet
    try {
      let claimedRows: Awaited<ReturnType<Store['queue']['claimDue']>> | null = null;
      const claim = store.queue
        .claimDue({ now: T0, limit: 10, leaseUntil: T0 + MIN, workerId: 'w', saturatedEndpoints: [] })
        .then((c) => {
          claimedRows = c;
          gate.log.push('claimed');
        });
      await turns();
      assert.equal(accepted, false, 'the accept resolved while its fsync was still running');
      assert.equal(claimedRows, null, 'the claim returned a delivery whose accepting commit was not yet on disk');
      gate.release();
      await Promise.all([accept, claim]);
      assert.equal(claimedRows!.length, 1, 'the delivery is claimed once its commit is durable');
      assert.equal(claimedRows![0].delivery.id, 'dlv_000001_0');
      const synced = gate.log.indexOf('fsync done');
      assert.ok(synced >= 0 && synced < gate.log.indexOf('claimed'), `order: ${gate.log.join(', ')}`);
    } finally {
      gate.dispose();
      await accept.catch(() => undefined);
    }
  });
});

test('a failed fsync latches the driver: every later call is refused, reads included, and readiness is fatal', async () => {
  let failNext = false;
  const fsync = async (_fd: number) => {
    if (failNext) {
      failNext = false;
      throw Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' });
    }
  };
  await withDriver({ walFsync: fsync }, async (d) => {
    const store = sqliteStore(d);
    const fatal: Error[] = [];
    store.onFatal!((e) => fatal.push(e));
    await store.catalog.setSetting('before', '1');
    failNext = true;
    await assert.rejects(store.catalog.setSetting('lost', '1'), (e: any) => e.code === 'SQLITE_IOERR_FSYNC');
    // The next fsync would succeed (failNext is off again): the driver must not try it.
    await assert.rejects(store.catalog.setSetting('after', '1'), (e: any) => e.code === 'SQLITE_IOERR_FSYNC');
    await assert.rejects(store.catalog.getSetting('before'), (e: any) => e.code === 'SQLITE_IOERR_FSYNC', 'a read');
    await assert.rejects(
      d.transaction(async () => 1),
      (e: any) => e.code === 'SQLITE_IOERR_FSYNC',
      'a transaction',
    );
    assert.equal(fatal.length, 1);
    assert.equal(await store.ping(), false);
    const p = await store.problem!();
    assert.equal(p?.fatal, true);
    assert.match(p!.reason, /EIO/);
  });
});

test("a symlinked database path: the WAL synced is the real file's, the one SQLite writes", async () => {
  const inodes: number[] = [];
  const fsync = async (fd: number) => void inodes.push(fstatSync(fd).ino);
  await withDriver(
    { walFsync: fsync },
    async (d, dir) => {
      const real = realpathSync(join(dir, 'real', 'h.db'));
      assert.equal(d.walPath, `${real}-wal`);
      await sqliteStore(d).catalog.setSetting('k', 'v');
      assert.ok(inodes.includes(statSync(`${real}-wal`).ino), 'the real WAL file was fsynced');
    },
    (dir) => {
      mkdirSync(join(dir, 'real'));
      mkdirSync(join(dir, 'link'));
      // A file symlink in another directory: SQLite follows it and keeps h.db-wal beside the real file.
      const target = join(dir, 'real', 'h.db');
      rmSync(target, { force: true });
      symlinkSync(target, join(dir, 'link', 'h.db'));
      return join(dir, 'link', 'h.db');
    },
  );
});
