// Tenants and endpoints over real HTTP: CRUD, URL refusals (no traffic), secrets, test delivery, request errors.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startReceiver, startTestServer, type TestServer } from './server-harness.ts';

let t: TestServer;
let strict: TestServer;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let ten: string;

before(async () => {
  t = await startTestServer();
  // No --allow-http, no --allow-private-targets: the production rules.
  strict = await startTestServer({ config: { allowHttp: false, allowPrivateTargets: false } });
  receiver = await startReceiver();
  ten = await t.tenant();
});
after(async () => {
  await receiver.close();
  await t.close();
  await strict.close();
});

test('tenants: create, get, list with cursor, patch, delete', async () => {
  const created = await t.api('POST', '/v1/tenants', {
    body: { name: 'Globex', owner_emails: ['a@globex.test'], notify_email: false },
  });
  assert.equal(created.status, 201);
  assert.match(created.body.id, /^ten_[0-9A-Z]{26}$/);
  assert.equal(created.body.notify_email, false);
  assert.match(created.body.created_at, /^\d{4}-\d{2}-\d{2}T/);
  assert.equal((await t.api('GET', `/v1/tenants/${created.body.id}`)).body.name, 'Globex');
  const p1 = await t.api('GET', '/v1/tenants?limit=1');
  assert.equal(p1.body.items.length, 1);
  assert.ok(p1.body.next_cursor);
  const p2 = await t.api('GET', `/v1/tenants?limit=1&cursor=${p1.body.next_cursor}`);
  assert.notEqual(p2.body.items[0].id, p1.body.items[0].id);
  const patched = await t.api('PATCH', `/v1/tenants/${created.body.id}`, { body: { name: 'Globex Corp' } });
  assert.equal(patched.body.name, 'Globex Corp');
  const badOps = await t.api('PATCH', `/v1/tenants/${created.body.id}`, {
    body: { operations_endpoint_id: 'ep_nope' },
  });
  assert.equal(badOps.status, 400);
  assert.equal((await t.api('DELETE', `/v1/tenants/${created.body.id}`)).status, 204);
  const gone = await t.api('GET', `/v1/tenants/${created.body.id}`);
  assert.equal(gone.status, 404);
  assert.equal(gone.body.error.code, 'tenant_not_found');
  assert.equal((await t.api('DELETE', `/v1/tenants/${created.body.id}`)).body.error.code, 'tenant_not_found');
});

test('request errors: validation names the field, 415, 413, bad JSON, unknown route, bad cursor, request ids', async () => {
  const missing = await t.api('POST', '/v1/tenants', { body: {} });
  assert.equal(missing.status, 400);
  assert.equal(missing.body.error.code, 'invalid_request');
  assert.match(missing.body.error.message, /name/);
  const unknown = await t.api('POST', '/v1/tenants', { body: { name: 'x', colour: 'red' } });
  assert.equal(unknown.status, 400);
  assert.match(unknown.body.error.message, /colour|additional/);
  const text = await t.api('POST', '/v1/tenants', { raw: 'name=x', headers: { 'content-type': 'text/plain' } });
  assert.equal(text.status, 415);
  assert.equal(text.body.error.code, 'unsupported_media_type');
  const bad = await t.api('POST', '/v1/tenants', { raw: '{"name":', headers: { 'content-type': 'application/json' } });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error.code, 'invalid_json');
  const big = await t.api('POST', `/v1/tenants/${ten}/events`, {
    body: { type: 'big', data: 'x'.repeat(1024 * 1024 + 10) },
  });
  assert.equal(big.status, 413);
  assert.equal(big.body.error.code, 'body_too_large');
  const nf = await t.api('GET', '/v2/whatever');
  assert.equal(nf.status, 404);
  assert.equal(nf.body.error.code, 'not_found');
  assert.ok(nf.body.error.request_id);
  const cursor = await t.api('GET', `/v1/tenants/${ten}/endpoints?cursor=not-a-cursor`);
  assert.equal(cursor.body.error.code, 'invalid_cursor');
  const limit = await t.api('GET', `/v1/tenants/${ten}/endpoints?limit=1000`);
  assert.equal(limit.status, 400);
  assert.match(limit.body.error.message, /limit/);
  const mine = await t.api('GET', '/healthz', { headers: { 'x-request-id': 'trace-123' } });
  assert.equal(mine.headers.get('x-request-id'), 'trace-123');
  const ok = await t.api('GET', `/v1/tenants/${ten}`);
  assert.match(ok.headers.get('x-request-id') ?? '', /^req_/);
});

test('endpoint URL refusals are validation errors, before any connection', async () => {
  const cases: Array<[string, string]> = [
    ['http://example.com/hook', 'url_must_be_https'],
    ['https://10.0.0.1/hook', 'url_private_address'],
    ['https://169.254.169.254/latest/meta-data', 'url_private_address'],
    ['https://[::1]/hook', 'url_private_address'],
    ['https://localhost/hook', 'url_private_address'],
    ['https://127.0.0.1:9/hook', 'url_private_address'],
    ['not a url', 'url_invalid'],
    [`https://example.com/${'a'.repeat(2100)}`, 'url_too_long'],
  ];
  const st = await strict.tenant();
  for (const [url, code] of cases) {
    const r = await strict.api('POST', `/v1/tenants/${st}/endpoints`, { body: { url } });
    assert.equal(r.status, 400, url);
    assert.equal(r.body.error.code, code, url);
  }
  // The same refusal on PATCH; a public https URL is accepted (registration never connects).
  const ok = await strict.api('POST', `/v1/tenants/${st}/endpoints`, { body: { url: 'https://hooks.example.com/in' } });
  assert.equal(ok.status, 201);
  const patch = await strict.api('PATCH', `/v1/tenants/${st}/endpoints/${ok.body.id}`, {
    body: { url: 'https://192.168.1.10/x' },
  });
  assert.equal(patch.body.error.code, 'url_private_address');
  assert.equal((await strict.api('GET', `/v1/tenants/${st}/deliveries`)).body.items.length, 0);
});

test('endpoints: create, get, list, patch fields and status, delete', async () => {
  const c = await t.api('POST', `/v1/tenants/${ten}/endpoints`, {
    body: {
      url: receiver.url,
      description: 'orders',
      event_types: ['order.*', 'refund.completed'],
      policy: 'brief',
      scheme: 'standard',
      timeout_ms: 2000,
      max_concurrency: 3,
    },
  });
  assert.equal(c.status, 201);
  assert.match(c.body.id, /^ep_/);
  assert.match(c.body.secret, /^whsec_/);
  assert.deepEqual(
    [c.body.policy, c.body.scheme, c.body.timeout_ms, c.body.max_concurrency, c.body.status],
    ['brief', 'standard', 2000, 3, 'active'],
  );
  const id = c.body.id;
  assert.equal((await t.api('GET', `/v1/tenants/${ten}/endpoints/${id}`)).body.description, 'orders');
  assert.ok((await t.api('GET', `/v1/tenants/${ten}/endpoints`)).body.items.some((e: { id: string }) => e.id === id));
  const paused = await t.api('PATCH', `/v1/tenants/${ten}/endpoints/${id}`, {
    body: { status: 'paused', description: 'paused for maintenance' },
  });
  assert.deepEqual([paused.body.status, paused.body.pause_reason], ['paused', 'manual']);
  const active = await t.api('PATCH', `/v1/tenants/${ten}/endpoints/${id}`, {
    body: { status: 'active', timeout_ms: null },
  });
  assert.deepEqual([active.body.status, active.body.pause_reason, active.body.timeout_ms], ['active', null, null]);
  for (const [body, pattern] of [
    [{ policy: 'nope' }, /unknown policy/],
    [{ scheme: 'svix' }, /scheme/],
    [{ status: 'degraded' }, /status/],
    [{ timeout_ms: 10 }, /timeout_ms/],
    [{ event_types: ['bad type!'] }, /event_types/],
    [{}, /fewer than 1|minProperties|must NOT have fewer/],
  ] as const) {
    const r = await t.api('PATCH', `/v1/tenants/${ten}/endpoints/${id}`, { body });
    assert.equal(r.status, 400, JSON.stringify(body));
    assert.match(r.body.error.message, pattern);
  }
  assert.equal((await t.api('DELETE', `/v1/tenants/${ten}/endpoints/${id}`)).status, 204);
  const gone = await t.api('GET', `/v1/tenants/${ten}/endpoints/${id}`);
  assert.equal(gone.body.error.code, 'endpoint_not_found');
  assert.equal((await t.api('DELETE', `/v1/tenants/${ten}/endpoints/${id}`)).status, 404);
  assert.equal(
    (await t.api('PATCH', `/v1/tenants/${ten}/endpoints/${id}`, { body: { description: 'x' } })).status,
    404,
  );
});

test('rate limit: set on create, changed and cleared by PATCH, validated with its code; effective concurrency is read-only', async () => {
  const c = await t.api('POST', `/v1/tenants/${ten}/endpoints`, {
    body: { url: receiver.url, max_concurrency: 7, rate_limit_per_s: 50 },
  });
  assert.equal(c.status, 201);
  assert.deepEqual([c.body.rate_limit_per_s, c.body.effective_concurrency], [50, 7]);
  const id = c.body.id;
  assert.equal(
    (await t.api('PATCH', `/v1/tenants/${ten}/endpoints/${id}`, { body: { rate_limit_per_s: 10_000 } })).body
      .rate_limit_per_s,
    10_000,
  );
  assert.equal((await t.api('GET', `/v1/tenants/${ten}/endpoints/${id}`)).body.rate_limit_per_s, 10_000);
  assert.equal(
    (await t.api('PATCH', `/v1/tenants/${ten}/endpoints/${id}`, { body: { rate_limit_per_s: null } })).body
      .rate_limit_per_s,
    null,
  );
  for (const v of [0, -5, 10_001]) {
    const r = await t.api('PATCH', `/v1/tenants/${ten}/endpoints/${id}`, { body: { rate_limit_per_s: v } });
    assert.equal(r.status, 400, String(v));
    assert.equal(r.body.error.code, 'rate_limit_invalid');
  }
  const created = await t.api('POST', `/v1/tenants/${ten}/endpoints`, {
    body: { url: receiver.url, rate_limit_per_s: 0 },
  });
  assert.deepEqual([created.status, created.body.error.code], [400, 'rate_limit_invalid']);
  for (const v of ['50', 1.5])
    assert.equal(
      (await t.api('PATCH', `/v1/tenants/${ten}/endpoints/${id}`, { body: { rate_limit_per_s: v } })).status,
      400,
    );
  const ro = await t.api('PATCH', `/v1/tenants/${ten}/endpoints/${id}`, { body: { effective_concurrency: 2 } });
  assert.equal(ro.status, 400, 'learned, not set');
  await t.api('DELETE', `/v1/tenants/${ten}/endpoints/${id}`);
});

test('secrets: read, rotate with overlap, both live; 404 for unknown endpoint', async () => {
  const c = await t.api('POST', `/v1/tenants/${ten}/endpoints`, { body: { url: receiver.url } });
  const s0 = await t.api('GET', `/v1/tenants/${ten}/endpoints/${c.body.id}/secret`);
  assert.equal(s0.body.secret, c.body.secret);
  assert.equal(s0.body.secrets.length, 1);
  const rotated = await t.api('POST', `/v1/tenants/${ten}/endpoints/${c.body.id}/secret/rotate`, {
    body: { overlap_seconds: 3600 },
  });
  assert.equal(rotated.status, 200);
  assert.notEqual(rotated.body.secret, c.body.secret);
  assert.equal(rotated.body.secrets.length, 2);
  const old = rotated.body.secrets.find((s: { secret: string }) => s.secret === c.body.secret);
  const left = Date.parse(old.expires_at) - Date.now();
  assert.ok(left > 3_500_000 && left <= 3_600_000, `overlap ${left}`);
  // No body: the configured default overlap (24 h).
  const r2 = await t.api('POST', `/v1/tenants/${ten}/endpoints/${c.body.id}/secret/rotate`);
  assert.equal(r2.status, 200);
  assert.equal(
    (await t.api('POST', `/v1/tenants/${ten}/endpoints/${c.body.id}/secret/rotate`, { body: { overlap_seconds: -1 } }))
      .status,
    400,
  );
  assert.equal(
    (await t.api('GET', `/v1/tenants/${ten}/endpoints/ep_nope/secret`)).body.error.code,
    'endpoint_not_found',
  );
  // Secrets are encrypted at rest: the store never holds the plaintext.
  const sealed = await t.server.runtime.store.catalog.listSecrets(c.body.id);
  assert.ok(sealed.every((s) => s.sealed.startsWith('v1:') && !s.sealed.includes(c.body.secret.slice(6))));
});

test('test delivery: one attempt now, returned; failure is reported, not thrown', async () => {
  const c = await t.api('POST', `/v1/tenants/${ten}/endpoints`, { body: { url: receiver.url } });
  const before = receiver.received.length;
  const r = await t.api('POST', `/v1/tenants/${ten}/endpoints/${c.body.id}/test`);
  assert.equal(r.status, 200);
  assert.deepEqual([r.body.trigger, r.body.outcome, r.body.response_status], ['test', 'success', 200]);
  assert.equal(receiver.received.length, before + 1);
  assert.equal(JSON.parse(receiver.received.at(-1)!.body.toString()).type, 'hookline.test');
  const closed = await startReceiver();
  await closed.close();
  const dead = await t.api('POST', `/v1/tenants/${ten}/endpoints`, { body: { url: closed.url } });
  const f = await t.api('POST', `/v1/tenants/${ten}/endpoints/${dead.body.id}/test`);
  assert.equal(f.status, 200);
  assert.equal(f.body.outcome, 'delivery_failure');
  assert.equal(f.body.error_class, 'connection');
  assert.equal((await t.api('POST', `/v1/tenants/${ten}/endpoints/ep_nope/test`)).status, 404);
});
