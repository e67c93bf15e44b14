// The audit chain against tampering, on both dialects: an entry edited in the database, or deleted (in the middle or
// at the head), is named by verify; retention's purge is not taken for tampering; on PostgreSQL, writers in two
// "processes" (two pools) appending at once never fork the chain.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import pg from 'pg';
import type { Actor } from '../src/audit/audit-types.ts';
import { VirtualClock } from '../src/clock.ts';
import { createHookline, type Hookline } from '../src/hookline.ts';
import { generateMasterKey } from '../src/secret-box.ts';
import { openPostgresStore } from '../src/store/postgres/postgres-store.ts';
import { SqliteDriver } from '../src/store/sqlite/sqlite-driver.ts';
import { sqliteStore } from '../src/store/sqlite/sqlite-store.ts';
import type { Store } from '../src/store/store.ts';
import { tempStore } from '../testing/harness.ts';
import { pgTestDb } from './fixtures/pg-test-db.ts';

const admin: Actor = { kind: 'admin', id: 'admin', ip: '127.0.0.1', userAgent: 'test', requestId: 'req_1' };
const engineOn = (store: Store, clock = new VirtualClock(Date.UTC(2026, 0, 5, 12))): Hookline =>
  createHookline({ store, clock, masterKey: generateMasterKey(), allowHttp: true, allowPrivateTargets: true });

/** Five entries: three tenants created, one renamed, one deleted. */
async function changes(engine: Hookline): Promise<void> {
  for (const name of ['a', 'b', 'c']) await engine.tenants.create({ name }, admin);
  const { items } = await engine.tenants.list(null, 10);
  await engine.tenants.update(items[0].id, { name: 'renamed' }, admin);
  await engine.tenants.delete(items[1].id, admin);
}

/** Raw SQL on the store's own database, past the store: what someone with database access could do. */
type Raw = (sql: string) => Promise<void>;
/** The audit table's columns as the database has them. */
type Columns = () => Promise<string[]>;

/**
 * One edit per column of entry 3 (tenant `c`'s creation, the admin's), as someone with database access would make it:
 * each is named by verify at seq 3. A column the table gains must be added here, and to what the hash covers.
 */
const COLUMN_EDITS: Record<string, { set: string; reason: RegExp }> = {
  seq: { set: 'seq = 99', reason: /missing/ },
  at: { set: 'at = at - 86400000', reason: /edited/ },
  tenant_id: { set: "tenant_id = 'ten_other'", reason: /edited/ },
  actor_kind: { set: "actor_kind = 'system'", reason: /edited/ },
  actor_id: { set: "actor_id = 'someone-else'", reason: /edited/ },
  ip: { set: "ip = '10.9.9.9'", reason: /edited/ },
  user_agent: { set: "user_agent = 'forged/1'", reason: /edited/ },
  request_id: { set: "request_id = 'req_forged'", reason: /edited/ },
  action: { set: "action = 'tenant.delete'", reason: /edited/ },
  target_type: { set: "target_type = 'api_key'", reason: /edited/ },
  target_id: { set: "target_id = 'ten_forged'", reason: /edited/ },
  changes: { set: `changes = '{}'`, reason: /edited/ },
  details: { set: `details = '{"note":"forged"}'`, reason: /edited/ },
  prev_hash: { set: "prev_hash = 'f00d'", reason: /prev_hash/ },
  hash: { set: "hash = 'f00d'", reason: /edited/ },
};

function tamperChecks(
  name: string,
  open: () => Promise<{ store: Store; raw: Raw; columns: Columns; cleanup(): Promise<void> }>,
  skip?: string | null,
) {
  describe(`audit chain tampering: ${name}`, { skip: skip ?? false }, () => {
    test('untouched, the chain verifies; an edited field is named by its seq', async () => {
      const s = await open();
      try {
        const engine = engineOn(s.store);
        await changes(engine);
        assert.deepEqual(await engine.audit.verify(), {
          ok: true,
          checked: 5,
          from: { seq: 0, hash: '' },
          broken: null,
        });
        await s.raw(`UPDATE audit_log SET actor_id = 'someone-else' WHERE seq = 3`);
        const v = await engine.audit.verify();
        assert.equal(v.ok, false);
        assert.equal(v.broken?.seq, 3);
        assert.match(v.broken!.reason, /edited/);
        assert.equal(v.checked, 3, 'the walk stops at the broken entry');
      } finally {
        await s.cleanup();
      }
    });

    test('every column of an entry is covered: an edit of any one of them (the time included) is named at its seq', async () => {
      const s = await open();
      try {
        const engine = engineOn(s.store);
        await changes(engine);
        assert.deepEqual(
          (await s.columns()).sort(),
          Object.keys(COLUMN_EDITS).sort(),
          'each column of audit_log has an edit here',
        );
        await s.raw('CREATE TABLE audit_kept AS SELECT * FROM audit_log');
        for (const [column, edit] of Object.entries(COLUMN_EDITS)) {
          await s.raw(`UPDATE audit_log SET ${edit.set} WHERE seq = 3`);
          const v = await engine.audit.verify();
          assert.deepEqual([v.ok, v.broken?.seq], [false, 3], `${column}: ${JSON.stringify(v)}`);
          assert.match(v.broken!.reason, edit.reason, column);
          await s.raw('DELETE FROM audit_log');
          await s.raw('INSERT INTO audit_log SELECT * FROM audit_kept');
          assert.equal((await engine.audit.verify()).ok, true, `restored after ${column}`);
        }
      } finally {
        await s.cleanup();
      }
    });

    test('an edited diff, with its hash recomputed by a forger who cannot see the next entry, breaks the next link', async () => {
      const s = await open();
      try {
        const engine = engineOn(s.store);
        await changes(engine);
        await s.raw(`UPDATE audit_log SET hash = 'f00d' WHERE seq = 2`);
        const v = await engine.audit.verify();
        assert.equal(v.broken?.seq, 2);
      } finally {
        await s.cleanup();
      }
    });

    test('a deleted entry is named; a deleted head is named too', async () => {
      const s = await open();
      try {
        const engine = engineOn(s.store);
        await changes(engine);
        await s.raw('DELETE FROM audit_log WHERE seq = 4');
        const v = await engine.audit.verify();
        assert.equal(v.broken?.seq, 4);
        assert.match(v.broken!.reason, /missing/);
      } finally {
        await s.cleanup();
      }
      const t = await open();
      try {
        const engine = engineOn(t.store);
        await changes(engine);
        await t.raw('DELETE FROM audit_log WHERE seq = 5');
        const v = await engine.audit.verify();
        assert.deepEqual([v.broken?.seq, v.checked], [5, 4]);
        assert.match(v.broken!.reason, /entries 5–5 are missing/);
        // The head's hash changed behind the entries' back: the last entry no longer reaches it.
        await t.raw(`UPDATE audit_chain SET head_seq = 4, head_hash = 'f00d'`);
        const w = await engine.audit.verify();
        assert.deepEqual([w.ok, w.broken?.seq, w.checked], [false, 4, 4]);
        assert.match(w.broken!.reason, /head does not match/);
      } finally {
        await t.cleanup();
      }
    });

    test('retention purges behind a checkpoint: what is kept still verifies, and later appends chain onto it', async () => {
      const s = await open();
      try {
        const clock = new VirtualClock(Date.UTC(2026, 0, 5, 12));
        const engine = engineOn(s.store, clock);
        await changes(engine);
        clock.advance(40 * 86_400_000);
        await engine.tenants.create({ name: 'late' }, admin);
        const purged = await engine.maintenance.run();
        assert.equal(purged.purged.audit, 5);
        const v = await engine.audit.verify();
        assert.deepEqual({ ok: v.ok, checked: v.checked, from: v.from.seq }, { ok: true, checked: 1, from: 5 });
        await s.raw('DELETE FROM audit_log WHERE seq = 6');
        assert.equal((await engine.audit.verify()).broken?.seq, 6);
      } finally {
        await s.cleanup();
      }
    });
  });
}

tamperChecks('sqlite', async () => {
  const t = await tempStore();
  await t.store.close();
  const driver = new SqliteDriver(t.path);
  const store = sqliteStore(driver);
  await store.migrate();
  return {
    store,
    raw: async (sql) => void driver.db.exec(sql),
    columns: async () =>
      (
        driver.db.prepare("SELECT name FROM pragma_table_info('audit_log')").all() as Array<{
          name: string;
        }>
      ).map((r) => r.name),
    cleanup: async () => {
      await store.close();
      await t.cleanup().catch(() => {});
    },
  };
});

const db = await pgTestDb();
after(() => db.cleanup());
let n = 0;
const schemaName = () => `audit_${process.pid}_${Date.now().toString(36)}_${n++}`;
async function pgStore(schema = schemaName()) {
  const store = await openPostgresStore(db.url!, { poolMax: 4, schema });
  return {
    store,
    raw: async (sql: string) => void (await store.pg.pool.query(sql)),
    columns: async () =>
      (
        await store.pg.pool.query<{ column_name: string }>(
          `SELECT column_name FROM information_schema.columns WHERE table_name = 'audit_log' AND table_schema = $1`,
          [schema],
        )
      ).rows.map((r) => r.column_name),
    cleanup: async () => {
      await store.close();
      const c = new pg.Client({ connectionString: db.url! });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await c.end();
    },
  };
}
tamperChecks('postgres', () => pgStore(), db.skip);

test('postgres: two processes appending at once take seq one after another and never fork the chain', {
  skip: db.skip ?? false,
}, async () => {
  const schema = schemaName();
  const a = await pgStore(schema);
  const b = await openPostgresStore(db.url!, { poolMax: 4, schema });
  try {
    const ea = engineOn(a.store);
    const eb = engineOn(b);
    await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? ea : eb).tenants.create({ name: `t${i}` }, admin)));
    const v = await ea.audit.verify();
    assert.deepEqual({ ok: v.ok, checked: v.checked }, { ok: true, checked: 40 });
    const chain = await a.store.audit.auditChain(0, 100);
    assert.deepEqual(
      chain.map((e) => e.seq),
      Array.from({ length: 40 }, (_, i) => i + 1),
    );
  } finally {
    await b.close();
    await a.cleanup();
  }
});
