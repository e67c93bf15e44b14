// A breaker transition whose transaction fails at COMMIT on PostgreSQL leaves no notification behind: the outbox row
// is written by the transition's own transaction (docs/rules.md#notifications), so "breaker opened" is never sent for
// a breaker that never opened. A deferred constraint trigger planted on the test schema's breakers table makes the
// commit itself fail, after every statement of the transaction has run.

import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import pg from 'pg';
import { breakerEntry } from '../src/outbox/outbox-entries.ts';
import { openPostgresStore } from '../src/store/postgres/postgres-store.ts';
import type { BreakerRow } from '../src/store/store.ts';
import { within } from '../testing/deadline.ts';
import { testTenant } from '../testing/harness.ts';
import { MIN } from '../testing/time.ts';
import { pgTestDb } from './fixtures/pg-test-db.ts';

const db = await pgTestDb();
if (db.skip) console.log(`# SKIPPED outbox.commit-failure: ${db.skip}`);
after(() => db.cleanup());

const T0 = Date.UTC(2026, 0, 5, 12);

test('PostgreSQL: a breaker transition that fails at commit leaves no outbox row', {
  skip: db.skip ?? false,
}, async () => {
  const schema = `obx_${process.pid}_${Date.now().toString(36)}`;
  const store = await openPostgresStore(db.url!, { poolMax: 4, schema });
  try {
    await testTenant(store, { id: 'ten_O', at: T0 });
    // Raises only when the transaction commits (INITIALLY DEFERRED), and only for the breaker that is to fail.
    await store.pg.pool.query(`
      CREATE FUNCTION ${schema}.fail_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.scope_key = 'tenant:ten_O' THEN RAISE EXCEPTION 'planted: this commit fails'; END IF;
        RETURN NULL;
      END $$`);
    await store.pg.pool.query(`
      CREATE CONSTRAINT TRIGGER fail_at_commit AFTER INSERT OR UPDATE ON ${schema}.breakers
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ${schema}.fail_at_commit()`);

    const row = (scopeKey: string): BreakerRow => ({
      scopeKey,
      tenantId: 'ten_O',
      state: 'open',
      pauseMs: 5 * MIN,
      openedAt: T0,
      nextProbeAt: T0 + 5 * MIN,
      probeDeliveryId: null,
      updatedAt: T0,
    });
    const opened = (scopeKey: string, scope: 'tenant' | 'endpoint') =>
      breakerEntry({
        at: T0,
        scope,
        scopeKey,
        tenantId: 'ten_O',
        from: 'closed',
        to: 'open',
        reason: 'failure_ratio',
        pauseMs: 5 * MIN,
        nextProbeAt: T0 + 5 * MIN,
        probeDeliveryId: null,
      });

    await assert.rejects(
      within(
        'the failing commit',
        10_000,
        store.breakers.saveBreaker(row('tenant:ten_O'), null, opened('tenant:ten_O', 'tenant')),
      ),
      /planted: this commit fails/,
    );
    assert.equal(await store.breakers.getBreaker('tenant:ten_O'), null, 'the transition did not happen');
    assert.deepEqual(await store.outbox.claimOutbox(T0 + MIN, 10, T0 + 2 * MIN), [], 'and nothing announces it');

    // The control: the same write for a breaker the trigger lets through commits both rows.
    assert.equal(
      await store.breakers.saveBreaker(row('endpoint:ep_1'), null, opened('endpoint:ep_1', 'endpoint')),
      true,
    );
    assert.deepEqual(
      (await store.outbox.claimOutbox(T0 + MIN, 10, T0 + 2 * MIN)).map((r) => [r.kind, r.subjectId]),
      [['breaker.opened', 'endpoint:ep_1']],
    );
  } finally {
    await store.close();
    const c = new pg.Client(db.url!);
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await c.end();
  }
});
