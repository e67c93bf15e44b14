// The Svix-compatible API driven by the official `svix` SDK (npm) against a real `hookline serve` through
// `serverUrl`, on SQLite and on PostgreSQL: applications by uid, event types with schemas, filtered and channelled
// endpoints, raw-payload deliveries verified by the SDK's Webhook class and by standardwebhooks, paging, attempts,
// resend, recover, rotation, portal access, idempotency, tenant keys and 404s as ApiException.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { ApiException, Ordering, Svix, Webhook } from 'svix';
import { startCli } from './cli-harness.ts';
import { type Received, startReceiver, until, within } from './server-harness.ts';

const TOKEN = 'test-admin-token-0123456789';
const PG_URL = process.env.HOOKLINE_TEST_PG_URL;

function serve(db: string, env: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'hookline-svix-'));
  const run = startCli(['serve', '--db', db, '--port', '0', '--allow-http', '--allow-private-targets'], {
    HOOKLINE_ADMIN_TOKEN: TOKEN,
    HOOKLINE_DATA_DIR: join(dir, 'data'),
    ...env,
  });
  const url = run.stderrLine(/ on http:\/\//).then((line) => /(http:\/\/[^\s]+)/.exec(line)![1]);
  return { ...run, url };
}

const headersOf = (r: Received) =>
  Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]));

/** Verifies one delivery with both libraries, unchanged: the body is the payload's JSON text. */
function verifyBoth(secret: string, r: Received): unknown {
  const body = r.body.toString('utf8');
  const h = headersOf(r);
  const viaSvix = new Webhook(secret).verify(body, h);
  const viaStandard = new StandardWebhook(secret).verify(body, h);
  assert.deepEqual(viaSvix, viaStandard);
  return viaSvix;
}

async function rejectsWith(status: number, p: Promise<unknown>): Promise<ApiException<any>> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof ApiException, `expected an ApiException, got ${String(err)}`);
    assert.equal(err.code, status, JSON.stringify(err.body));
    return err;
  }
  assert.fail(`expected HTTP ${status}`);
}

async function suite(serverUrl: string, run: string): Promise<void> {
  const svix = new Svix(TOKEN, { serverUrl });
  await svix.health.get();

  const all = await startReceiver(() => 200);
  const eu = await startReceiver(() => 200);
  try {
    // Applications by uid: get-or-create twice is one application; get by uid or id.
    const uid = `app-${run}`;
    const app = await svix.application.getOrCreate({ name: 'Acme', uid, metadata: { plan: 'pro' } });
    const again = await svix.application.getOrCreate({ name: 'Acme', uid });
    assert.equal(again.id, app.id);
    assert.equal((await svix.application.get(uid)).id, app.id);
    assert.deepEqual(app.metadata, { plan: 'pro' });
    assert.ok(app.createdAt instanceof Date && !Number.isNaN(app.createdAt.getTime()));
    const patched = await svix.application.patch(uid, { name: 'Acme Inc', rateLimit: 100 });
    assert.equal(patched.name, 'Acme Inc');
    assert.equal(patched.rateLimit, 100);
    assert.equal(patched.uid, uid);

    // An event type whose schema is enforced on messages (422 naming the field).
    const type = `invoice.paid.${run}`;
    await svix.eventType.create({
      name: type,
      description: 'An invoice was paid',
      schemas: { '1': { type: 'object', required: ['amount'], properties: { amount: { type: 'number' } } } },
    });
    assert.equal((await svix.eventType.get(type)).description, 'An invoice was paid');

    // A filtered endpoint (this type only) and a channelled one (channel eu only) with a caller-chosen secret.
    const given = `whsec_${randomBytes(24).toString('base64')}`;
    const epAll = await svix.endpoint.create(uid, { url: all.url, filterTypes: [type], uid: 'ep-all' });
    const epEu = await svix.endpoint.create(uid, { url: eu.url, channels: ['eu'], secret: given, uid: 'ep-eu' });
    assert.deepEqual(epAll.filterTypes, [type]);
    assert.deepEqual(epEu.channels, ['eu']);
    assert.equal((await svix.endpoint.getSecret(uid, 'ep-eu')).key, given);
    const secretAll = (await svix.endpoint.getSecret(uid, epAll.id)).key;

    const m1 = await svix.message.create(uid, { eventType: type, payload: { amount: 5, note: 'ü' }, eventId: 'inv-1' });
    await svix.message.create(uid, { eventType: 'other.type', payload: { x: 1 }, channels: ['eu'] });
    await svix.message.create(uid, { eventType: 'other.type', payload: { x: 2 }, channels: ['us'] });
    const invalid = await rejectsWith(422, svix.message.create(uid, { eventType: type, payload: { amount: 'five' } }));
    assert.deepEqual(invalid.body.detail[0].loc, ['body', 'payload', 'amount']);

    await within('deliveries', 20_000, Promise.all([all.waitFor(1), eu.waitFor(1)]));
    // The raw payload, verified unchanged by both libraries.
    assert.equal(
      all.received[0].body.toString('utf8'),
      JSON.stringify({ amount: 5, note: 'ü' }),
      JSON.stringify(all.received.map((r) => [r.headers, r.body.toString()])),
    );
    assert.deepEqual(verifyBoth(secretAll, all.received[0]), { amount: 5, note: 'ü' });
    assert.deepEqual(verifyBoth(given, eu.received[0]), { x: 1 });

    // Messages: get by id and by eventId; list filtered by type and by channel.
    assert.equal((await svix.message.get(uid, m1.id)).eventId, 'inv-1');
    assert.deepEqual((await svix.message.get(uid, 'inv-1')).payload, { amount: 5, note: 'ü' });
    assert.deepEqual(
      (await svix.message.list(uid, { eventTypes: [type] })).data.map((m) => m.id),
      [m1.id],
    );
    assert.deepEqual(
      (await svix.message.list(uid, { channel: 'us' })).data.map((m) => m.payload),
      [{ x: 2 }],
    );

    // Idempotency: the same key answers the first message, not a second one.
    const k = `key-${run}`;
    const i1 = await svix.message.create(uid, { eventType: 'other.type', payload: { i: 1 } }, { idempotencyKey: k });
    const i2 = await svix.message.create(uid, { eventType: 'other.type', payload: { i: 1 } }, { idempotencyKey: k });
    assert.equal(i2.id, i1.id);

    // Attempts by endpoint and by message, then a resend of a succeeded message: a new attempt.
    const attempts = await until(
      () => svix.messageAttempt.listByEndpoint(uid, epAll.id),
      (r) => r.data.length === 1,
    );
    assert.equal(attempts.data[0].status, 0);
    assert.equal(attempts.data[0].responseStatusCode, 200);
    assert.equal(attempts.data[0].msgId, m1.id);
    assert.equal((await svix.messageAttempt.listByMsg(uid, m1.id)).data.length, 1);
    await svix.messageAttempt.resend(uid, m1.id, epAll.id);
    await within('the resend', 20_000, all.waitFor(2));
    // Every write through /api/v1 is in the audit log as the admin's, like /v1's (docs/audit.md).
    const audit = (await (
      await fetch(`${serverUrl}/v1/audit-log?tenant=${app.id}&limit=200`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      })
    ).json()) as { items: Array<{ action: string; actor: { kind: string } }> };
    for (const action of ['tenant.create', 'tenant.labels', 'endpoint.create', 'message.resend'])
      assert.ok(
        audit.items.some((e) => e.action === action && e.actor.kind === 'admin'),
        `${action} by the admin is in the audit log: ${audit.items.map((e) => `${e.action}/${e.actor.kind}`).join(', ')}`,
      );
    assert.deepEqual(verifyBoth(secretAll, all.received[1]), { amount: 5, note: 'ü' });
    const after = await until(
      () => svix.messageAttempt.listByMsg(uid, m1.id),
      (r) => r.data.length === 2,
    );
    assert.ok(after.data.some((a) => a.triggerType === 1));
    assert.equal((await svix.messageAttempt.get(uid, m1.id, after.data[0].id)).id, after.data[0].id);
    const sent = await svix.messageAttempt.listAttemptedMessages(uid, epAll.id);
    assert.ok(sent.data.length >= 1 && sent.data.every((m) => m.id === m1.id && m.status === 0));
    const destinations = await svix.messageAttempt.listAttemptedDestinations(uid, m1.id);
    assert.ok(destinations.data.length >= 1 && destinations.data.every((d) => d.id === epAll.id));

    // Rotation: a new secret signs the next delivery.
    await svix.endpoint.rotateSecret(uid, epAll.id, {});
    const rotated = (await svix.endpoint.getSecret(uid, epAll.id)).key;
    assert.notEqual(rotated, secretAll);
    await svix.message.create(uid, { eventType: type, payload: { amount: 7 } });
    await within('after rotation', 20_000, all.waitFor(3));
    assert.deepEqual(verifyBoth(rotated, all.received[2]), { amount: 7 });

    // Recover answers Svix's task shape; headers; stats.
    const rec = await svix.endpoint.recover(uid, epAll.id, { since: new Date(Date.now() - 3_600_000) });
    assert.equal(rec.status, 'running');
    await svix.endpoint.updateHeaders(uid, epAll.id, { headers: { 'x-team': 'billing' } });
    assert.deepEqual((await svix.endpoint.getHeaders(uid, epAll.id)).headers, { 'x-team': 'billing' });
    const stats = await svix.endpoint.getStats(uid, epAll.id);
    assert.equal(typeof stats.success, 'number');

    // Paging through applications with the iterator.
    for (let i = 0; i < 3; i++) await svix.application.create({ name: `Paged ${i}`, uid: `paged-${run}-${i}` });
    const seen: string[] = [];
    let iterator: string | null = null;
    for (let pages = 0; pages < 1000; pages++) {
      const page = await svix.application.list({ limit: 2, ...(iterator ? { iterator } : {}) });
      assert.ok(page.data.length <= 2);
      seen.push(...page.data.map((a) => a.uid ?? ''));
      if (page.done) break;
      iterator = page.iterator;
    }
    for (let i = 0; i < 3; i++) assert.ok(seen.includes(`paged-${run}-${i}`));
    // Newest first: ours come in reverse creation order (other tests may add tenants to a shared database).
    const newest = await svix.application.list({ limit: 250, order: Ordering.Descending });
    assert.deepEqual(
      newest.data.map((a) => a.uid).filter((u) => u?.startsWith(`paged-${run}-`)),
      [2, 1, 0].map((i) => `paged-${run}-${i}`),
    );

    // Portal access: a Hookline portal link and its token for this application.
    const portal = await svix.authentication.appPortalAccess(uid, {});
    assert.match(portal.url, /\/console\/portal\/hlp_/);
    assert.ok(portal.url.endsWith(portal.token));

    // 404s as ApiException; a uid taken is 409.
    await rejectsWith(404, svix.application.get(`missing-${run}`));
    await rejectsWith(404, svix.endpoint.get(uid, 'no-such-endpoint'));
    await rejectsWith(404, svix.message.get(uid, 'no-such-message'));
    await rejectsWith(409, svix.application.create({ name: 'Twin', uid }));

    // A tenant API key reaches its own application only; the admin token every one.
    const other = await svix.application.create({ name: 'Other', uid: `other-${run}` });
    const keyRes = await fetch(`${serverUrl}/v1/tenants/${app.id}/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'svix' }),
    });
    assert.equal(keyRes.status, 201);
    const own = new Svix(((await keyRes.json()) as { key: string }).key, { serverUrl });
    assert.equal((await own.application.get(uid)).id, app.id);
    assert.deepEqual(
      (await own.application.list()).data.map((a) => a.id),
      [app.id],
    );
    await rejectsWith(404, own.application.get(other.uid!));
    await rejectsWith(404, own.endpoint.list(other.id));
    await rejectsWith(403, own.application.create({ name: 'Mine', uid: `mine-${run}` }));
    assert.equal((await own.message.create(uid, { eventType: type, payload: { amount: 9 } })).eventType, type);

    // send-example goes to that endpoint only, with the type's example; a bad field is a 422 naming it.
    await svix.eventType.update(type, {
      description: 'An invoice was paid',
      schemas: { '1': { type: 'object', properties: { amount: { type: 'number' } } } },
    });
    const before = eu.received.length;
    const example = await svix.endpoint.sendExample(uid, epEu.id, { eventType: type });
    assert.equal(example.eventType, type);
    await within('the example', 20_000, eu.waitFor(before + 1));
    assert.deepEqual(verifyBoth(given, eu.received[before]), {});
    const bad = await rejectsWith(422, svix.endpoint.create(uid, { url: 42 as unknown as string }));
    assert.deepEqual(bad.body.detail[0].loc, ['body', 'url']);

    // Event types: patch, archive on delete (listed only with include_archived).
    assert.equal((await svix.eventType.patch(type, { deprecated: true })).deprecated, true);
    await svix.eventType.delete(type);
    assert.ok(!(await svix.eventType.list()).data.some((t) => t.name === type));
    assert.equal(
      (await svix.eventType.list({ includeArchived: true })).data.find((t) => t.name === type)?.archived,
      true,
    );

    // Endpoint patch (disabled = paused, uid moved) and delete; application delete.
    const p = await svix.endpoint.patch(uid, 'ep-eu', { disabled: true, uid: 'ep-eu-2', description: 'EU' });
    assert.deepEqual([p.disabled, p.uid, p.description, p.channels], [true, 'ep-eu-2', 'EU', ['eu']]);
    await svix.endpoint.delete(uid, 'ep-eu-2');
    await rejectsWith(404, svix.endpoint.get(uid, 'ep-eu-2'));
    await svix.application.delete(other.id);
    await rejectsWith(404, svix.application.get(other.uid!));
  } finally {
    await all.close();
    await eu.close();
  }
}

test('svix SDK against hookline serve on SQLite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hookline-svix-db-'));
  const s = serve(join(dir, 'h.db'));
  const url = await within('serve to listen', 30_000, s.url);
  try {
    await suite(url, randomBytes(4).toString('hex'));
  } finally {
    s.child.kill('SIGTERM');
    await s.done.catch(() => undefined);
  }
});

test('svix SDK against hookline serve on PostgreSQL', {
  skip:
    !PG_URL && process.env.CI !== 'true'
      ? 'HOOKLINE_TEST_PG_URL is not set (npm test starts PostgreSQL and sets it)'
      : false,
}, async () => {
  assert.ok(PG_URL, 'HOOKLINE_TEST_PG_URL must be set in CI');
  // The master key every server test on this database uses.
  const s = serve(PG_URL, { HOOKLINE_MASTER_KEY: Buffer.alloc(32, 9).toString('base64') });
  const url = await within('serve to listen', 30_000, s.url);
  try {
    await suite(url, randomBytes(4).toString('hex'));
  } finally {
    s.child.kill('SIGTERM');
    await s.done.catch(() => undefined);
  }
});
