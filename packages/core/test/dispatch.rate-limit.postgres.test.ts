// Rate limit across workers (docs/rules.md#rate-limit): two workers on one PostgreSQL database share the endpoint's
// token bucket; together they send at the limit ± 10 %, measured at a loopback receiver on the injected clock.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createHookline } from '../src/hookline.ts';
import { seededRandom } from '../src/policy/random.ts';
import { generateMasterKey } from '../src/secret-box.ts';
import { openPostgresStore } from '../src/store/postgres/postgres-store.ts';
import { testEngine } from '../testing/harness.ts';
import { startReceiver } from '../testing/receiver.ts';
import { adminQuery, pgTestDb } from './fixtures/pg-test-db.ts';
import { acceptAll, assertPace, drive, RATE } from './fixtures/rate-pacing.ts';

const N = 400;

const pgDb = await pgTestDb();

test(`PostgreSQL: two workers share the endpoint's bucket: ${N} deliveries at ${RATE}/s ± 10 %`, {
  skip: pgDb.skip ?? false,
}, async () => {
  const schema = `rate_${process.pid}_${Date.now().toString(36)}`;
  const storeA = await openPostgresStore(pgDb.url!, { poolMax: 4, schema });
  const storeB = await openPostgresStore(pgDb.url!, { poolMax: 4, schema });
  const masterKey = generateMasterKey();
  const t = await testEngine({
    store: storeA,
    masterKey,
    dispatcher: { workerId: 'wrk_a', random: seededRandom(1), logAttempts: false },
  });
  const b = createHookline({
    store: storeB,
    clock: t.clock,
    masterKey,
    allowHttp: true,
    allowPrivateTargets: true,
    dispatcher: { workerId: 'wrk_b', random: seededRandom(2), logAttempts: false },
  });
  const rx = await startReceiver(() => 200, { clock: t.clock });
  try {
    await t.engine.endpoints.create(t.tenantId, { url: rx.url, max_concurrency: 20, rate_limit_per_s: RATE });
    await acceptAll(t.engine, t.tenantId, N);
    const seen = { a: 0, b: 0 };
    t.engine.addObserver({ attempt: () => void seen.a++ });
    b.addObserver({ attempt: () => void seen.b++ });
    const both = { runDue: () => Promise.all([t.engine.runDue(), b.runDue()]), nextDueAt: () => t.engine.nextDueAt() };
    await drive(both, t.clock);
    assertPace(rx.received, N);
    console.log(`# worker a sent ${seen.a}, worker b ${seen.b}`);
    assert.ok(seen.a > 0 && seen.b > 0, 'both workers took part');
  } finally {
    await rx.close();
    await b.stop();
    await storeB.close();
    await t.close();
    await storeA.close();
    await adminQuery(pgDb.url!, `DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  }
});
