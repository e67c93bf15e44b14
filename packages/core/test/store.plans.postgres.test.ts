// The plans PostgreSQL picks for the reads the API and console page through (docs/scaling.md#history): over a table
// of finished deliveries (statistics analyzed), no read scans the deliveries table, and each list filter is an index
// condition — not a walk of the tenant's rows newest first until a page matches, whose cost grows with history.
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { toPositional } from '../src/store/postgres/named-params.ts';
import { openPostgresStore } from '../src/store/postgres/postgres-store.ts';
import { loadStatements } from '../src/store/sql-files.ts';
import { pgTestDb } from './fixtures/pg-test-db.ts';

const storeDir = join(dirname(fileURLToPath(import.meta.url)), '../src/store');
const db = await pgTestDb();
if (db.skip) console.log(`# SKIPPED store.plans: ${db.skip}`);
after(() => db.cleanup());

const ROWS = 60_000;
const T0 = Date.UTC(2026, 0, 5);

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  'Recheck Cond'?: string;
  Plans?: PlanNode[];
}

function nodes(n: PlanNode): PlanNode[] {
  return [n, ...(n.Plans ?? []).flatMap(nodes)];
}

describe('PostgreSQL plans over history', { skip: db.skip ?? false }, () => {
  const schema = `plans_${process.pid}_${Date.now().toString(36)}`;
  const statements = loadStatements(join(storeDir, 'postgres', 'sql'));
  let c: pg.Client;

  before(async () => {
    const migrated = await openPostgresStore(db.url!, { schema, poolMax: 1 });
    await migrated.close();
    c = new pg.Client({ connectionString: db.url!, options: `-c search_path=${schema}` });
    await c.connect();
    // Two tenants, eight endpoints; deliveries a second apart, one in 50 failed, the newest 1,000 pending.
    await c.query(`INSERT INTO tenants (id, name, owner_emails, created_at, updated_at)
      VALUES ('ten_A', 'A', '[]', ${T0}, ${T0}), ('ten_B', 'B', '[]', ${T0}, ${T0})`);
    await c.query(`INSERT INTO endpoints (id, tenant_id, url, status, policy, max_concurrency, created_at, updated_at)
      SELECT 'ep_' || g, CASE WHEN g < 4 THEN 'ten_A' ELSE 'ten_B' END, 'https://example.test/' || g, 'active',
        'standard', 20, ${T0}, ${T0} FROM generate_series(0, 7) g`);
    // Endpoint e of row g: ep_0 is rare (one row in 1,000), the rest share the others; ep_0–3 are ten_A's. One
    // event type is rare too. Filters on common values may walk the newest rows (a page is near); rare ones may not.
    const e = `(CASE WHEN g % 1000 = 0 THEN 0 ELSE 1 + g % 7 END)`;
    const tenant = `(CASE WHEN ${e} < 4 THEN 'ten_A' ELSE 'ten_B' END)`;
    await c.query(`INSERT INTO events (id, tenant_id, event_id, type, version, occurred_at, body, body_hash, created_at)
      SELECT 'evt_' || lpad(g::text, 8, '0'), ${tenant}, 'e' || g,
        CASE WHEN g % 1000 = 1 THEN 'type.rare' ELSE 'type.' || (g % 20) END, '1', '2026-01-05T00:00:00Z', '\\x7b7d',
        'h', ${T0} + g * 1000
      FROM generate_series(1, ${ROWS}) g`);
    await c.query(`INSERT INTO deliveries (id, tenant_id, event_pk, endpoint_id, status, attempt_count,
        last_attempt_at, next_attempt_at, created_at, updated_at)
      SELECT 'dlv_' || lpad(g::text, 8, '0'), ${tenant}, 'evt_' || lpad(g::text, 8, '0'), 'ep_' || ${e},
        CASE WHEN g > ${ROWS - 1000} THEN 'pending' WHEN g % 50 = 0 THEN 'failed' ELSE 'succeeded' END, 1,
        ${T0} + g * 1000, CASE WHEN g > ${ROWS - 1000} THEN ${T0} + g * 1000 END, ${T0} + g * 1000, ${T0} + g * 1000
      FROM generate_series(1, ${ROWS}) g`);
    await c.query('ANALYZE');
  });

  after(async () => {
    await c?.query(`DROP SCHEMA ${schema} CASCADE`).catch(() => {});
    await c?.end();
  });

  /** The plan of a named statement with these parameters (an unnamed statement: planned for these values). */
  async function plan(name: string, params: Record<string, unknown>): Promise<PlanNode[]> {
    const s = toPositional(statements[name]);
    const r = await c.query({ text: `EXPLAIN (FORMAT JSON) ${s.text}`, values: s.names.map((n) => params[n] ?? null) });
    return nodes((r.rows[0]['QUERY PLAN'] as Array<{ Plan: PlanNode }>)[0].Plan);
  }

  const noDeliveryScan = (ns: PlanNode[], what: string) =>
    assert.deepEqual(
      ns.filter((n) => n['Relation Name'] === 'deliveries' && n['Node Type'] === 'Seq Scan').map((n) => n['Node Type']),
      [],
      `${what}: a sequential scan of deliveries`,
    );
  /** Some node reading `relation` has `column` in its index condition. */
  const indexOn = (ns: PlanNode[], relation: string, column: string, what: string) =>
    assert.ok(
      ns.some(
        (n) =>
          n['Relation Name'] === relation &&
          `${n['Index Cond'] ?? ''} ${n['Recheck Cond'] ?? ''}`.includes(column) &&
          n['Node Type'] !== 'Seq Scan',
      ) ||
        ns.some(
          (n) =>
            n['Node Type'] === 'Bitmap Index Scan' &&
            (n['Index Name'] ?? '').startsWith(relation) &&
            (n['Index Cond'] ?? '').includes(column),
        ),
      `${what}: no index condition on ${relation}.${column}:\n${JSON.stringify(
        ns.map((n) => [n['Node Type'], n['Relation Name'], n['Index Name'], n['Index Cond']]),
      )}`,
    );

  const list = (filter: Record<string, unknown>) =>
    plan('list-deliveries', { tenant_id: 'ten_A', before: '~', limit: 51, ...filter });

  test('the deliveries list, unfiltered and by each filter, reads an index range for that filter', async () => {
    const all = await list({});
    // Newest first over an index (the tenant's range, or the primary key backwards when the tenant is most rows).
    noDeliveryScan(all, 'unfiltered');
    // A status most rows have (succeeded) may walk the newest rows instead: each page is found after about two rows
    // per match, whatever the history. A rare one (the dead letter; the queue) must be an index range.
    noDeliveryScan(await list({ status: 'succeeded' }), 'status=succeeded');
    for (const status of ['failed', 'pending', 'skipped']) {
      const ns = await list({ status });
      noDeliveryScan(ns, `status=${status}`);
      indexOn(ns, 'deliveries', 'status', `status=${status}`);
    }
    const byEndpoint = await list({ endpoint_id: 'ep_0' });
    noDeliveryScan(byEndpoint, 'endpoint');
    indexOn(byEndpoint, 'deliveries', 'endpoint_id', 'endpoint');
    const byType = await list({ event_type: 'type.rare' });
    noDeliveryScan(byType, 'event type');
    indexOn(byType, 'events', 'type', 'event type');
    const byEventId = await list({ event_id: 'e4241' });
    noDeliveryScan(byEventId, 'event id');
    indexOn(byEventId, 'events', 'event_id', 'event id');
    // A few minutes at the start of the history: a range of (tenant_id, created_at), not a walk past every newer row.
    const byTime = await list({ since: T0, until: T0 + 300_000 });
    noDeliveryScan(byTime, 'time window');
    indexOn(byTime, 'deliveries', 'created_at', 'time window');
    // A wider window: PostgreSQL may walk the newest rows instead (it assumes matches are spread evenly, not that
    // they sit at the far end of the id order); never a scan of the table.
    noDeliveryScan(await list({ since: T0, until: T0 + 3_600_000 }), 'an hour');
    // A later page: the keyset bound is part of the same range.
    const later = await list({ status: 'failed', before: 'dlv_00030000' });
    indexOn(later, 'deliveries', 'status', 'a later page');
  });

  test("the console overview's reads (stats, per minute) and the queue figures do not scan deliveries", async () => {
    const stats = await plan('endpoint-stats', { tenant_id: 'ten_A', since_minute: 0, now: T0 + ROWS * 1000 });
    noDeliveryScan(stats, 'endpoint-stats');
    const minutes = await plan('deliveries-per-minute', { tenant_id: 'ten_A', since_minute: 0 });
    noDeliveryScan(minutes, 'deliveries-per-minute');
    assert.ok(!minutes.some((n) => n['Relation Name'] === 'deliveries'), 'per-minute stats read the counters only');
    for (const name of ['count-queued', 'oldest-due']) noDeliveryScan(await plan(name, { now: T0 }), name);
  });

  test("the event search reads index ranges: by tenant and id, by type, by event_id prefix; a page's deliveries by event", async () => {
    const eventScan = (ns: PlanNode[], what: string) =>
      assert.deepEqual(
        ns.filter((n) => n['Relation Name'] === 'events' && n['Node Type'] === 'Seq Scan').map((n) => n['Node Type']),
        [],
        `${what}: a sequential scan of events`,
      );
    const range = { tenant_id: 'ten_B', after_id: 'evt_00030000', to_id: 'evt_00031000', limit: 501 };
    const byId = await plan('search-events', range);
    eventScan(byId, 'search-events');
    indexOn(byId, 'events', 'id', 'search-events (window)');
    const byType = await plan('search-events-of-type', {
      ...range,
      after_id: 'evt_',
      to_id: 'evt_~',
      type: 'type.rare',
    });
    eventScan(byType, 'search-events-of-type');
    indexOn(byType, 'events', 'type', 'search-events-of-type');
    const byPrefix = await plan('search-events-by-event-id', {
      tenant_id: 'ten_B',
      from_event_id: 'e4241',
      after_event_id: '',
      limit: 501,
    });
    eventScan(byPrefix, 'search-events-by-event-id');
    indexOn(byPrefix, 'events', 'event_id', 'search-events-by-event-id');
    const deliveries = await plan('deliveries-of-events', {
      tenant_id: 'ten_B',
      event_pks: ['evt_00030001', 'evt_00030002'],
    });
    noDeliveryScan(deliveries, 'deliveries-of-events');
    indexOn(deliveries, 'deliveries', 'event_pk', 'deliveries-of-events');
    eventScan(
      await plan('count-events-of-type-up-to', { tenant_id: 'ten_B', type: 'type.rare', cap: 100_001 }),
      'count',
    );
  });
});
