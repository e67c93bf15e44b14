// Two `hookline serve --role api` processes on one PostgreSQL database share each tenant's limits
// (docs/rules.md#tenant-limits): the token bucket and the daily count are rows read and written in the accepting
// transaction under a per-tenant lock, so concurrent requests to both processes never pass a limit together.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ownChild } from '@hookline/core/testing';
import pg from 'pg';
import { type ServeProcess, serveApi, startServe } from './fixtures/serve-process.ts';
import { ADMIN_TOKEN, within } from './server-harness.ts';

const given = process.env.HOOKLINE_TEST_PG_URL;
const skip =
  !given && process.env.CI !== 'true'
    ? 'HOOKLINE_TEST_PG_URL is not set (npm test starts PostgreSQL and sets it)'
    : false;

const ENV = { HOOKLINE_MASTER_KEY: Buffer.alloc(32, 7).toString('base64'), HOOKLINE_ADMIN_TOKEN: ADMIN_TOKEN };

/** A database of the test's own, so no other suite's processes or tenants share it; dropped when the test ends. */
async function freshDatabase(after: (fn: () => Promise<void>) => void): Promise<string> {
  assert.ok(given, 'HOOKLINE_TEST_PG_URL must be set in CI');
  const name = `hl_limits_${process.pid}_${Date.now().toString(36)}`;
  const at = (db: string) => {
    const u = new URL(given);
    u.pathname = `/${db}`;
    return u.toString();
  };
  const c = new pg.Client({ connectionString: at('postgres'), connectionTimeoutMillis: 5000 });
  await c.connect();
  try {
    await c.query(`CREATE DATABASE ${name}`);
  } finally {
    await c.end();
  }
  after(async () => {
    const d = new pg.Client({ connectionString: at('postgres'), connectionTimeoutMillis: 5000 });
    await d.connect();
    try {
      await d.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    } finally {
      await d.end();
    }
  });
  return at(name);
}

async function serve(db: string, after: (fn: () => Promise<void> | void) => void): Promise<ServeProcess> {
  const p = await startServe(['--db', db, '--role', 'api'], ENV);
  ownChild(p.child, after);
  after(async () => {
    if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGTERM');
    await within('hookline serve to stop', 20_000, p.exited);
  });
  return p;
}

// 90 s: two server processes start (up to ~15 s each on a loaded machine) before any request is sent.
test('two api processes share one rate bucket and one daily count per tenant', { skip, timeout: 90_000 }, async (t) => {
  const db = await freshDatabase(t.after.bind(t));
  const [a, b] = [await serve(db, t.after.bind(t)), await serve(db, t.after.bind(t))];
  const apiA = serveApi(() => a, ADMIN_TOKEN);
  const apiB = serveApi(() => b, ADMIN_TOKEN);
  const tenant = (await apiA('POST', '/v1/tenants', { name: 'Shared' })).body.id as string;
  /** `n` events to each process at once; the answers' statuses and codes, counted. */
  const burst = async (prefix: string, n: number) => {
    const sends = [apiA, apiB].flatMap((api, p) =>
      Array.from({ length: n }, (_, i) =>
        api('POST', `/v1/tenants/${tenant}/events`, { event_id: `${prefix}-${p}-${i}`, type: 'a.b', data: {} }),
      ),
    );
    const counts: Record<string, number> = {};
    for (const r of await Promise.all(sends)) {
      const k = r.status === 202 ? '202' : `${r.status} ${r.body.error?.code}`;
      counts[k] = (counts[k] ?? 0) + 1;
    }
    return counts;
  };

  // One event per 100 s: the bucket holds one token. Each process with a bucket of its own would accept one each.
  const limited = await apiB('PATCH', `/v1/tenants/${tenant}`, { limits: { events_per_s: 0.01 } });
  assert.equal(limited.status, 200);
  assert.deepEqual(await burst('r', 10), { 202: 1, '429 tenant_rate_limited': 19 });

  // The daily count is shared the same way: 11 of the day, one used, so exactly 10 more across both processes.
  await apiA('PATCH', `/v1/tenants/${tenant}`, { limits: { events_per_s: null, events_per_day: 11 } });
  assert.deepEqual(await burst('d', 15), { 202: 10, '429 tenant_quota_exceeded': 20 });
  for (const api of [apiA, apiB]) {
    const usage = (await api('GET', `/v1/tenants/${tenant}/usage`)).body;
    assert.deepEqual([usage.events_today, usage.percent], [11, 100]);
  }
});
