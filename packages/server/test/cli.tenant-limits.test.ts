// `hookline tenants set` sets a tenant's limits (docs/rules.md#tenant-limits): one flag per field of the PATCH body's
// `limits`, `none` back to the configured default; `hookline tenants usage` reads them with today's count.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { LIMIT_FLAGS, limitsBody } from '../src/cli/commands/tenant-limits.ts';
import { json, runMain } from './cli-harness.ts';
import { ADMIN_TOKEN, startTestServer } from './server-harness.ts';

test("the limit flags of 'tenants set' cover every field of the PATCH body's limits", () => {
  const api = JSON.parse(readFileSync(new URL('../openapi.json', import.meta.url), 'utf8'));
  const fields = Object.keys(api.components.schemas.UpdateTenantRequest.properties.limits.properties).sort();
  const sample = Object.fromEntries(Object.keys(LIMIT_FLAGS).map((f) => [f, '3']));
  assert.deepEqual(Object.keys(limitsBody('tenants set', sample) ?? {}).sort(), fields);
  assert.deepEqual(limitsBody('tenants set', { 'events-per-s': '0.5', 'max-endpoints': 'none' }), {
    events_per_s: 0.5,
    max_endpoints: null,
  });
  assert.equal(limitsBody('tenants set', {}), null);
  assert.throws(() => limitsBody('tenants set', { 'events-per-day': '-1' }), /--events-per-day must be a whole number/);
  assert.throws(() => limitsBody('tenants set', { 'events-per-s': '0' }), /--events-per-s must be a number above 0/);
});

test('tenants set and usage over the API; a tenant key cannot set limits', async (t) => {
  const srv = await startTestServer();
  t.after(() => srv.close());
  const tenant = await srv.tenant();
  const admin = { HOOKLINE_URL: srv.url, HOOKLINE_TOKEN: ADMIN_TOKEN };
  const set = await runMain(
    ['tenants', 'set', tenant, '--events-per-s', '50', '--events-per-day', '1000', '--max-endpoints', '3', '--json'],
    admin,
  );
  assert.equal(set.code, 0, set.stderr);
  assert.deepEqual(json(set).limits, {
    events_per_s: 50,
    events_per_day: 1000,
    max_endpoints: 3,
    max_payload_bytes: null,
  });
  const cleared = await runMain(['tenants', 'set', tenant, '--events-per-day', 'none', '--json'], admin);
  assert.equal(json(cleared).limits.events_per_day, null);
  assert.equal(json(cleared).limits.events_per_s, 50);

  await srv.api('POST', `/v1/tenants/${tenant}/events`, { body: { type: 'a.b', data: {} } });
  const usage = await runMain(['tenants', 'usage', tenant], admin);
  assert.equal(usage.code, 0, usage.stderr);
  assert.match(usage.stdout, /events today:\s+1 \(no limit\)/);
  assert.match(usage.stdout, /endpoints:\s+0 of 3/);

  const key = (await srv.api('POST', `/v1/tenants/${tenant}/api-keys`, { body: { name: 'ci' } })).body.key;
  const own = await runMain(['tenants', 'set', '--events-per-day', '1000000'], {
    HOOKLINE_URL: srv.url,
    HOOKLINE_TOKEN: key,
    HOOKLINE_TENANT: tenant,
  });
  assert.notEqual(own.code, 0);
  assert.match(own.stderr, /forbidden|cannot do this/);
  const nothing = await runMain(['tenants', 'set', tenant], admin);
  assert.equal(nothing.code, 2);
  assert.match(nothing.stderr, /nothing to change/);
});
