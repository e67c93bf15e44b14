// Ordered delivery with failing heads across processes (docs/rules.md#ordered-claim): three worker processes on one
// PostgreSQL database run fixtures/failing-heads.ts — heads that retry, heads that block their key until dismissed or
// replayed — and every key's arrivals stay exactly in order, one in flight at a time. ordering.postgres.test.ts has no
// head that blocks, and SIGKILLs a worker instead.
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { test } from 'node:test';
import { createHookline } from '../src/hookline.ts';
import { PolicyRegistry } from '../src/policy/registry.ts';
import { generateMasterKey } from '../src/secret-box.ts';
import { openPostgresStore } from '../src/store/postgres/postgres-store.ts';
import { within } from '../testing/deadline.ts';
import { HEADS_POLICIES, runFailingHeads } from './fixtures/failing-heads.ts';
import { adminQuery, pgTestDb, withDatabase } from './fixtures/pg-test-db.ts';
import { startPgWorker } from './fixtures/pg-worker-process.ts';

const pgDb = await pgTestDb();

test('PostgreSQL, 3 worker processes: per key in order, nothing after a failing head until it resolves, a dismissed or replayed head lets its key go on', {
  skip: pgDb.skip ?? false,
  timeout: 180_000,
}, async (t) => {
  const dbName = `hookline_heads_${process.pid}_${Date.now().toString(36)}`;
  await adminQuery(pgDb.url!, `CREATE DATABASE ${dbName}`);
  const url = withDatabase(pgDb.url!, dbName);
  const masterKey = generateMasterKey();
  const store = await openPostgresStore(url, { poolMax: 4 });
  // Accepts, dismisses and replays; it never dispatches (it is not started): the workers do.
  const api = createHookline({
    store,
    masterKey,
    policies: PolicyRegistry.fromConfig(HEADS_POLICIES),
    allowHttp: true,
    allowPrivateTargets: true,
    maintenance: { enabled: false },
  });
  const workers: ChildProcess[] = [];
  t.after(async () => {
    // The workers go first: they would otherwise log errors about the database dropped under them.
    for (const w of workers) {
      if (w.exitCode !== null || w.signalCode !== null) continue;
      const exited = once(w, 'exit');
      w.kill('SIGKILL');
      await within('a worker to exit', 10_000, exited);
    }
    await api.stop();
    await store.close();
    await adminQuery(pgDb.url!, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
    await pgDb.cleanup();
  });
  await runFailingHeads(api, store, async () => {
    for (let i = 1; i <= 3; i++)
      workers.push(
        await startPgWorker(
          { url, workerId: `wrk_${i}`, masterKey, policies: HEADS_POLICIES, leaseMs: 5000 },
          t.after.bind(t),
        ),
      );
  });
});
