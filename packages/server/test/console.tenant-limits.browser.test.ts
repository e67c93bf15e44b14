// The console in a real browser, a tenant's usage and limits (docs/rules.md#tenant-limits): the admin sets the limits
// on the tenant's overview and sees today's count against them; a tenant's own session sees its usage, not the form.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openBrowser, browserTest as opts, shot } from './console-browser.ts';
import { consoleWorld, signIn } from './console-world.ts';
import { ADMIN_TOKEN } from './server-harness.ts';

const w = consoleWorld();

test("the admin sets a tenant's limits on its overview and sees its usage against them", opts, async (tc) => {
  tc.after(() =>
    w.t.api('PATCH', `/v1/tenants/${w.a}`, {
      body: { limits: { events_per_s: null, events_per_day: null, max_endpoints: null, max_payload_bytes: null } },
    }),
  );
  const { page } = await openBrowser(tc);
  await signIn(w, page, ADMIN_TOKEN);
  await page.locator('#tenants').waitFor();
  await page.goto(`${w.t.url}/console/#/t/${w.a}`);
  await page.locator('#usage-events', { hasText: '(no limit)' }).waitFor();
  await page.getByLabel('Events per day').fill('10');
  await page.getByLabel('Endpoints').fill('5');
  await page.getByRole('button', { name: 'Save limits' }).click();
  await page.locator('#limits-status', { hasText: 'Limits saved' }).waitFor();
  await page.locator('#usage-events', { hasText: 'of 10' }).waitFor();
  await page.locator('#usage-endpoints', { hasText: '1 of 5' }).waitFor();
  const saved = (await w.t.api('GET', `/v1/tenants/${w.a}`)).body.limits;
  assert.deepEqual(saved, { events_per_s: null, events_per_day: 10, max_endpoints: 5, max_payload_bytes: null });
  // Eight events today: 80 % of the quota, shown after a reload.
  for (let i = 0; i < 8; i++)
    assert.equal(
      (await w.t.api('POST', `/v1/tenants/${w.a}/events`, { body: { type: 'usage.probe', data: { i } } })).status,
      202,
    );
  await page.reload();
  await page.locator('#usage-events', { hasText: /8 of 10 — 80 %/ }).waitFor();
  await shot(page, 'tenant-usage-admin');
  // A value that is not a number is not sent; the form says which field.
  await page.getByLabel('Events per second').fill('fast');
  await page.getByRole('button', { name: 'Save limits' }).click();
  await page.locator('#limits-status.error', { hasText: 'Events per second' }).waitFor();
  assert.equal((await w.t.api('GET', `/v1/tenants/${w.a}`)).body.limits.events_per_s, null);
  // Emptied, a field goes back to the configured default.
  await page.getByLabel('Events per second').fill('');
  await page.getByLabel('Events per day').fill('');
  await page.getByRole('button', { name: 'Save limits' }).click();
  await page.locator('#usage-events', { hasText: '(no limit)' }).waitFor();
  assert.equal((await w.t.api('GET', `/v1/tenants/${w.a}`)).body.limits.events_per_day, null);
});

test("a tenant's own session sees its usage but no limits form", opts, async (tc) => {
  const { page } = await openBrowser(tc);
  await signIn(w, page, w.keyA);
  await page.getByRole('heading', { name: 'Acme CRM — overview' }).waitFor();
  await page.locator('#usage-endpoints').waitFor();
  assert.equal(await page.locator('#limits-form').count(), 0);
  await shot(page, 'tenant-usage-tenant');
});
