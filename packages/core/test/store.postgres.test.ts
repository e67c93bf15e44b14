// The store conformance suite on PostgreSQL (a fresh schema per check), plus what only PostgreSQL has: concurrent
// migration, LISTEN/NOTIFY wake-ups, reconnects after pg_terminate_backend, statement timeouts.

import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { PostgresOptions } from '../src/store/postgres/postgres-driver.ts';
import { openPostgresStore, type PostgresStore } from '../src/store/postgres/postgres-store.ts';
import { until, within } from '../testing/deadline.ts';
import { orderingConformance } from '../testing/ordering-conformance.ts';
import { outboxConformance } from '../testing/outbox-conformance.ts';
import {
  attemptOf,
  endpoint,
  MIN,
  newEvent,
  record,
  secret,
  T0,
  tenant,
} from '../testing/store-conformance/fixtures.ts';
import { storeConformance } from '../testing/store-conformance/index.ts';
import { pgTestDb } from './fixtures/pg-test-db.ts';

const db = await pgTestDb();
if (db.skip) console.log(`# SKIPPED store.postgres suites: ${db.skip}`);

let n = 0;
const schemaName = () => `conf_${process.pid}_${Date.now().toString(36)}_${n++}`;

async function dropSchema(schema: string): Promise<void> {
  const c = new pg.Client(db.url!);
  await c.connect();
  await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await c.end();
}

async function fresh(
  options: PostgresOptions = {},
): Promise<{ store: PostgresStore; schema: string; cleanup(): Promise<void> }> {
  const schema = options.schema ?? schemaName();
  const store = await openPostgresStore(db.url!, { poolMax: 4, ...options, schema });
  return {
    store,
    schema,
    async cleanup() {
      await store.close();
      await dropSchema(schema);
    },
  };
}

// One migrated schema for the suite, emptied before each check: much faster than a schema (DDL) per check.
const suiteSchema = schemaName();
const emptied = async () => {
  const store = await openPostgresStore(db.url!, { poolMax: 4, schema: suiteSchema });
  // DELETE, not TRUNCATE: on these few rows it takes milliseconds where TRUNCATE's new files take ~0.4 s.
  const { rows } = await store.pg.pool.query(
    `SELECT tablename FROM pg_tables WHERE schemaname = $1 AND tablename NOT IN ('schema_migrations', 'audit_chain')`,
    [suiteSchema],
  );
  const first = ['attempts', 'deliveries', 'events', 'endpoint_secrets', 'endpoints', 'api_keys'];
  const tables = [...first, ...rows.map((r) => r.tablename as string).filter((t) => !first.includes(t))];
  await store.pg.pool.query(
    [
      ...tables.map((t) => `DELETE FROM ${suiteSchema}.${t}`),
      // The audit chain's one row (migration 022) goes back to its start rather than away.
      `UPDATE ${suiteSchema}.audit_chain SET head_seq = 0, head_hash = '', base_seq = 0, base_hash = ''`,
    ].join('; '),
  );
  return { store, cleanup: () => store.close() };
};
storeConformance('postgres', emptied, { skip: db.skip ?? false });
outboxConformance('postgres', emptied, { skip: db.skip ?? false });
orderingConformance('postgres', async () => fresh(), { skip: db.skip ?? false });
after(async () => {
  if (db.url) await dropSchema(suiteSchema).catch(() => {});
  await db.cleanup();
});

const migrationNames = (dialect: string) =>
  readdirSync(join(dirname(fileURLToPath(import.meta.url)), '../src/store', dialect, 'migrations'))
    .filter((f) => f.endsWith('.sql'))
    .sort();

describe('postgres only', { skip: db.skip ?? false }, () => {
  test("the start-up warnings follow the server's autovacuum setting (docs/scaling.md#history)", async () => {
    const { store, cleanup } = await fresh({ poolMax: 1 });
    try {
      const c = new pg.Client(db.url!);
      await c.connect();
      const { autovacuum } = (await c.query('SHOW autovacuum')).rows[0];
      await c.end();
      const warnings = await store.upkeepWarnings();
      assert.equal(warnings.length, autovacuum === 'off' ? 1 : 0, JSON.stringify({ autovacuum, warnings }));
    } finally {
      await cleanup();
    }
  });

  test('a role with synchronous_commit = off is refused at open, before anything is written; back on, it opens', async () => {
    const role = `hl_async_${process.pid}_${Date.now().toString(36)}`;
    const c = new pg.Client(db.url!);
    await c.connect();
    const url = new URL(db.url!);
    url.username = role;
    try {
      await c.query(`CREATE ROLE ${role} LOGIN SUPERUSER`);
      await c.query(`ALTER ROLE ${role} SET synchronous_commit = off`);
      const schema = schemaName();
      await assert.rejects(
        openPostgresStore(url.toString(), { schema, poolMax: 1 }),
        /synchronous_commit = off for this database or role: a commit could be answered before it is on disk/,
      );
      const { rows } = await c.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
      assert.equal(rows.length, 0, 'refused before migrating: no schema was created');
      await c.query(`ALTER ROLE ${role} RESET synchronous_commit`);
      const store = await openPostgresStore(url.toString(), { schema, poolMax: 1 });
      await store.close();
      await dropSchema(schema);
    } finally {
      await c.query(`DROP ROLE IF EXISTS ${role}`).catch(() => {});
      await c.end();
    }
  });

  test('several processes migrating at once migrate once', async () => {
    const schema = schemaName();
    const stores = await Promise.all([1, 2, 3].map(() => openPostgresStore(db.url!, { schema, poolMax: 2 })));
    const c = new pg.Client(db.url!);
    await c.connect();
    const { rows } = await c.query(`SELECT version FROM ${schema}.schema_migrations ORDER BY version`);
    await c.end();
    assert.deepEqual(
      rows.map((r) => r.version),
      migrationNames('postgres').map((f) => Number(f.slice(0, 3))),
    );
    await Promise.all(stores.map((s) => s.close()));
    await dropSchema(schema);
  });

  test('a commit that makes work due wakes every listening store (LISTEN/NOTIFY)', async () => {
    const a = await fresh();
    const b = await openPostgresStore(db.url!, { schema: a.schema, poolMax: 2 });
    try {
      let woken = 0;
      let resolveWoken!: () => void;
      const wokenOnce = new Promise<void>((r) => (resolveWoken = r));
      // The listener fires once on connect (it may have missed notifications); wait for it, then count.
      await within(
        "the listener's first wake-up on connect",
        10_000,
        new Promise<void>((r) => {
          const off = b.onDue(() => {
            off();
            r();
          });
        }),
      );
      b.onDue(() => {
        woken++;
        resolveWoken();
      });
      const now = Date.now();
      await a.store.catalog.createTenant({
        id: 'ten_A',
        name: 'A',
        ownerEmails: [],
        operationsEndpointId: null,
        notifyEmail: false,
        createdAt: now,
        updatedAt: now,
      });
      assert.equal(woken, 0, 'no due work, no wake-up');
      await a.store.catalog.createEndpoint(
        {
          id: 'ep_1',
          tenantId: 'ten_A',
          url: 'https://x.test/',
          description: '',
          eventTypes: [],
          policy: 'standard',
          scheme: 'hookline',
          timeoutMs: null,
          maxConcurrency: 5,
          status: 'active',
          pauseReason: null,
          failingSince: null,
          consecutiveFailedEvents: 0,
          lastSuccessAt: null,
          createdAt: now,
          updatedAt: now,
        },
        { kid: 'sec_1', endpointId: 'ep_1', sealed: 's', createdAt: now, expiresAt: null },
      );
      await a.store.events.acceptEvents([
        {
          event: {
            id: 'evt_1',
            tenantId: 'ten_A',
            eventId: 'e1',
            type: 't',
            version: '1',
            occurredAt: new Date(now).toISOString(),
            body: Buffer.from('{}'),
            isMoney: false,
            createdAt: now,
          },
          bodyHash: 'h',
          deliveries: [{ id: 'dlv_1', endpointId: 'ep_1', status: 'pending', nextAttemptAt: now }],
        },
      ]);
      await within("the commit's NOTIFY to wake the other store", 10_000, wokenOnce);
      assert.ok(woken >= 1);
    } finally {
      await b.close();
      await a.cleanup();
    }
  });

  test('connections cut with pg_terminate_backend: queries and transactions carry on, the listener comes back', async () => {
    const app = `hookline_cut_${process.pid}`;
    const errors: string[] = [];
    const s = await fresh({ applicationName: app, onError: (e, where) => errors.push(`${where}: ${e.message}`) });
    try {
      let listens = 0;
      let relisten!: () => void;
      const relistened = new Promise<void>((r) => (relisten = r));
      s.store.onDue(() => {
        if (++listens === 2) relisten();
      });
      const now = Date.now();
      await s.store.catalog.createTenant({
        id: 'ten_A',
        name: 'A',
        ownerEmails: [],
        operationsEndpointId: null,
        notifyEmail: false,
        createdAt: now,
        updatedAt: now,
      });
      // warm the pool with a few connections
      await Promise.all([1, 2, 3].map(() => s.store.catalog.getTenant('ten_A')));
      const c = new pg.Client(db.url!);
      await c.connect();
      const killed = await c.query(
        'SELECT count(pg_terminate_backend(pid)) AS n FROM pg_stat_activity WHERE application_name = $1',
        [app],
      );
      await c.end();
      assert.ok(Number(killed.rows[0].n) >= 2);
      assert.equal((await s.store.catalog.getTenant('ten_A'))?.id, 'ten_A');
      assert.equal((await s.store.catalog.updateTenant('ten_A', { name: 'B' }, now + 1))?.name, 'B');
      assert.equal(await s.store.ping(), true);
      await within('the listener to reconnect and fire once more', 15_000, relistened);
    } finally {
      await s.cleanup();
    }
  });

  test('a statement running past the timeout is cancelled by the server', async () => {
    const s = await fresh({ statementTimeoutMs: 200 });
    try {
      await assert.rejects(
        s.store.pg.pool.query('SELECT pg_sleep(2)'),
        (err: { code?: string }) => err.code === '57014',
      );
      assert.equal(await s.store.ping(), true);
    } finally {
      await s.cleanup();
    }
  });

  test('BIGINT times come back as numbers, beyond 32 bits', async () => {
    const s = await fresh();
    try {
      const at = Date.UTC(2099, 11, 31);
      await s.store.catalog.createTenant({
        id: 'ten_A',
        name: 'A',
        ownerEmails: [],
        operationsEndpointId: null,
        notifyEmail: true,
        createdAt: at,
        updatedAt: at,
      });
      const t = await s.store.catalog.getTenant('ten_A');
      assert.equal(t?.createdAt, at);
      assert.equal(typeof (await s.store.pg.pool.query('SELECT 9007199254740991::bigint AS x')).rows[0].x, 'number');
    } finally {
      await s.cleanup();
    }
  });

  // Record commits of several workers lock an endpoint row only when they change its health (docs/performance.md,
  // PostgreSQL): a healthy drain's commits no longer queue on each other's COMMIT, and a failure still counts on the
  // streak a concurrent commit is writing.
  test("a success on a clean endpoint commits while another transaction holds the endpoint's row lock; a failure waits and counts on the holder's streak", async () => {
    const s = await fresh();
    const holder = new pg.Client({ connectionString: db.url!, options: `-c search_path=${s.schema}` });
    await holder.connect();
    try {
      await s.store.catalog.createTenant(tenant('ten_A'));
      await s.store.catalog.createEndpoint(
        endpoint('ep_1', 'ten_A', { lastSuccessAt: T0 - MIN }),
        secret('sec_1', 'ep_1'),
      );
      await s.store.events.acceptEvents([newEvent('ten_A', 1, ['ep_1']), newEvent('ten_A', 2, ['ep_1'])]);
      const claimed = await s.store.queue.claimDue({
        now: T0,
        limit: 2,
        leaseUntil: T0 + MIN,
        workerId: 'w',
        saturatedEndpoints: [],
      });
      const [first, second] = claimed.map((c) => c.delivery.id).sort();

      // Another worker's commit holding the row (as a failure's health update would, until its COMMIT).
      await holder.query('BEGIN');
      await holder.query(`SELECT id FROM endpoints WHERE id = 'ep_1' FOR NO KEY UPDATE`);
      await within(
        'the success to commit beside the row lock',
        10_000,
        s.store.queue.recordAttempts(
          [record(attemptOf(first!, 'ten_A', 'ep_1', 1, T0, 'success'), 'w', { status: 'succeeded' })],
          T0,
        ),
      );
      assert.equal((await s.store.reporting.getDelivery('ten_A', first!))?.status, 'succeeded');
      await holder.query('ROLLBACK');

      // The holder degrades the endpoint (a streak of 3 failed events); a failure committed meanwhile waits for it.
      await holder.query('BEGIN');
      await holder.query(
        `UPDATE endpoints SET status = 'degraded', failing_since = ${T0}, consecutive_failed_events = 3 WHERE id = 'ep_1'`,
      );
      const failing = s.store.queue.recordAttempts(
        [
          record(attemptOf(second!, 'ten_A', 'ep_1', 1, T0 + 1000, 'delivery_failure'), 'w', {
            status: 'pending',
            ladder: 'fast',
            nextAttemptAt: T0 + 2000,
          }),
        ],
        T0 + 1000,
      );
      await until(
        async () =>
          // Not on the holder's connection: inside a transaction, pg_stat_activity stays as first read.
          (
            await s.store.pg.pool.query(
              `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database() AND query LIKE '%get-endpoint-by-id%'`,
            )
          ).rows[0].n,
        (n) => n > 0,
        { what: "the failure's commit to wait for the endpoint row" },
      );
      await holder.query('COMMIT');
      await within("the failure's commit", 10_000, failing);
      const ep = await s.store.catalog.getEndpoint('ten_A', 'ep_1');
      assert.deepEqual(
        [ep?.status, ep?.failingSince, ep?.consecutiveFailedEvents],
        ['degraded', T0, 4],
        "counted on the holder's streak, not on the row as it was before",
      );
    } finally {
      await holder.end();
      await s.cleanup();
    }
  });
});
