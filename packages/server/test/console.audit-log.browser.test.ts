// The console's Audit log page in a real browser (docs/audit.md): a tenant's session sees its own entries — its
// console sign-in among them, with the fields a change made — and the admin's page lists every tenant's, filtered by
// action from the URL.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openBrowser, browserTest as opts, shot } from './console-browser.ts';
import { consoleWorld, signIn } from './console-world.ts';
import { ADMIN_TOKEN } from './server-harness.ts';

const w = consoleWorld();

test(
  "a tenant's Audit log page lists its own changes, sign-in included, with fields before → after",
  opts,
  async (tc) => {
    await w.t.api('PATCH', `/v1/tenants/${w.a}/endpoints/${w.endpointA}`, { body: { description: 'crm-hooks v2' } });
    const { page } = await openBrowser(tc);
    await signIn(w, page, w.keyA);
    await page.getByRole('heading', { name: 'Acme CRM — overview' }).waitFor();
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    // The heading shows before the entries load: wait for the newest (this sign-in) to be drawn.
    await page.locator('#audit-log tbody tr', { hasText: 'console.sign_in' }).first().waitFor();
    const rows = await page.locator('#audit-log tbody tr').allInnerTexts();
    assert.match(rows[0], /console\.sign_in/, 'the newest entry is this sign-in');
    assert.match(rows[0], /api_key key_/, 'signed in by presenting the API key');
    const update = rows.find((r) => r.includes('endpoint.update'));
    assert.ok(update, rows.join('\n'));
    assert.match(update, /description: crm-hooks → crm-hooks v2/);
    assert.ok(!rows.some((r) => r.includes(w.b)), "no entry of another tenant's");
    await shot(page, 'audit-log-tenant');
  },
);

test("the admin's Audit log lists every tenant's entries; the action filter narrows them", opts, async (tc) => {
  const { page } = await openBrowser(tc);
  await signIn(w, page, ADMIN_TOKEN);
  await page.locator('#tenants').waitFor();
  await page.getByRole('link', { name: 'Audit log' }).click();
  await page.getByRole('heading', { name: 'Audit log' }).waitFor();
  await page.locator('#audit-log tbody tr', { hasText: w.a }).first().waitFor();
  const all = await page.locator('#audit-log tbody').innerText();
  assert.match(all, new RegExp(w.a));
  assert.match(all, new RegExp(w.b));
  await page.getByLabel('Action').fill('tenant.create');
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.locator('#audit-count', { hasText: '2 entries' }).waitFor();
  const rows = await page.locator('#audit-log tbody tr').allInnerTexts();
  assert.ok(rows.every((r) => r.includes('tenant.create')));
  await shot(page, 'audit-log-admin');
});
