// Every write the API offers leaves an audit entry (docs/audit.md): the test walks openapi.json's POST/PUT/PATCH/DELETE
// operations, performs a valid request for each from the table below (an operation without a sample fails the test,
// so a new write route must add one), and finds the entry by the request's id. A request form that takes another path
// through the route or the engine (PATCH with catch_up, an egress-only edit, a pause) is a sample of its own,
// `operationId:variant`. Then the log verifies, and a tenant's key sees only its own tenant's entries.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { VirtualClock } from '@hookline/core';
import { ADMIN_TOKEN, startReceiver, startTestServer, type TestServer, until } from './server-harness.ts';

/** `action`: the entry's action when it is not the operation's usual one. */
type Sample = { method: string; path: string; body?: unknown; token?: string; action?: string };

/** Writes that change no stored state of the catalog, with why they are not audited (docs/audit.md#what). */
const NOT_AUDITED: Record<string, string> = {
  sendEvent: 'the data plane: an event is its own record (the events table), at ingest volume',
  sendEvents: 'the data plane, as sendEvent',
  simulatePolicy: 'runs in a throwaway store; changes nothing',
  doctorEndpoint: 'probes the endpoint and records nothing',
};

let t: TestServer;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const clock = new VirtualClock(Date.UTC(2026, 0, 5, 12));
/** Ids the samples create and later ones use. */
const ids: Record<string, string> = {};

before(async () => {
  t = await startTestServer({ clock });
  // 400 (permanent under `strict`) for fail-*, 503 (retried later; the clock never moves) for pend-*, else 200.
  receiver = await startReceiver((_n, req) => {
    const id = (JSON.parse(req.body.toString()) as { event_id?: string }).event_id ?? '';
    return id.startsWith('fail-') ? 400 : id.startsWith('pend-') ? 503 : 200;
  });
});
after(async () => {
  await receiver.close();
  await t.close();
});

async function ok(method: string, path: string, body?: unknown) {
  const r = await t.api(method, path, { body });
  assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** Sends one event to the tenant and waits until its delivery is `status`; the delivery id. */
async function delivery(tenant: string, eventId: string, status: string, extra: Record<string, unknown> = {}) {
  const r = await ok('POST', `/v1/tenants/${tenant}/events`, {
    event_id: eventId,
    type: 'order.created',
    data: {},
    ...extra,
  });
  const id = r.deliveries[0].id as string;
  await until(
    () => t.api('GET', `/v1/tenants/${tenant}/deliveries/${id}`),
    (d) => d.body.status === status,
  );
  return id;
}

/** The samples, in the order they run (later ones use what earlier ones made; deletions come last). */
const SAMPLES: Record<string, () => Promise<Sample>> = {
  createTenant: async () => ({ method: 'POST', path: '/v1/tenants', body: { name: 'Audited' } }),
  updateTenant: async () => ({ method: 'PATCH', path: `/v1/tenants/${ids.tenant}`, body: { name: 'Renamed' } }),
  'updateTenant:limits': async () => ({
    method: 'PATCH',
    path: `/v1/tenants/${ids.tenant}`,
    body: { limits: { max_endpoints: 50 } },
    action: 'tenant.update',
  }),
  createApiKey: async () => ({ method: 'POST', path: `/v1/tenants/${ids.tenant}/api-keys`, body: { name: 'ci' } }),
  revokeApiKey: async () => {
    const k = await ok('POST', `/v1/tenants/${ids.tenant}/api-keys`, { name: 'old' });
    return { method: 'DELETE', path: `/v1/tenants/${ids.tenant}/api-keys/${k.id}` };
  },
  createPortalLink: async () => ({ method: 'POST', path: `/v1/tenants/${ids.tenant}/portal-links` }),
  putEventType: async () => ({
    method: 'PUT',
    path: '/v1/event-types/order.audited',
    body: { versions: { '1': { schema: {} } } },
  }),
  createEndpoint: async () => ({
    method: 'POST',
    path: `/v1/tenants/${ids.tenant}/endpoints`,
    body: { url: receiver.url, policy: 'strict', ordering: 'key', on_failure: 'block', headers: { 'X-Key': 'k-123' } },
  }),
  updateEndpoint: async () => ({
    method: 'PATCH',
    path: `/v1/tenants/${ids.tenant}/endpoints/${ids.endpoint}`,
    body: { description: 'audited', headers: { 'X-Key': 'k-456' } },
  }),
  // Egress settings are written beside the endpoint row, after the audited edit.
  'updateEndpoint:egress': async () => ({
    method: 'PATCH',
    path: `/v1/tenants/${ids.tenant}/endpoints/${ids.endpoint}`,
    body: { proxy: 'none' },
    action: 'endpoint.update',
  }),
  rotateEndpointSecret: async () => ({
    method: 'POST',
    path: `/v1/tenants/${ids.tenant}/endpoints/${ids.endpoint}/secret/rotate`,
    body: {},
  }),
  'rotateEndpointSecret:overlap': async () => ({
    method: 'POST',
    path: `/v1/tenants/${ids.tenant}/endpoints/${ids.endpoint}/secret/rotate`,
    body: { overlap_seconds: 60 },
    action: 'endpoint.secret_rotate',
  }),
  testEndpoint: async () => ({ method: 'POST', path: `/v1/tenants/${ids.tenant}/endpoints/${ids.endpoint}/test` }),
  setTenantBreaker: async () => ({
    method: 'POST',
    path: `/v1/tenants/${ids.tenant}/breaker`,
    body: { state: 'closed' },
  }),
  resetTenantBreaker: async () => ({ method: 'POST', path: `/v1/tenants/${ids.tenant}/breaker/reset` }),
  resetEndpointBreaker: async () => ({
    method: 'POST',
    path: `/v1/tenants/${ids.tenant}/endpoints/${ids.endpoint}/breaker/reset`,
  }),
  retryEndpoint: async () => ({ method: 'POST', path: `/v1/tenants/${ids.tenant}/endpoints/${ids.endpoint}/retry` }),
  replayWindow: async () => ({
    method: 'POST',
    path: `/v1/tenants/${ids.tenant}/endpoints/${ids.endpoint}/replays`,
    body: {},
  }),
  'replayWindow:range': async () => ({
    method: 'POST',
    path: `/v1/tenants/${ids.tenant}/endpoints/${ids.endpoint}/replays`,
    body: {
      since: new Date(clock.now() - 3_600_000).toISOString(),
      until: new Date(clock.now()).toISOString(),
      include_skipped: true,
    },
    action: 'endpoint.replay',
  }),
  retryDelivery: async () => {
    const id = await delivery(ids.tenant, 'pend-1', 'pending', { ordering_key: 'k-pend' });
    return { method: 'POST', path: `/v1/tenants/${ids.tenant}/deliveries/${id}/retry` };
  },
  dismissDelivery: async () => {
    const id = await delivery(ids.tenant, 'fail-1', 'failed', { ordering_key: 'k-fail' });
    ids.failed = id;
    return { method: 'POST', path: `/v1/tenants/${ids.tenant}/deliveries/${id}/dismiss` };
  },
  replayDelivery: async () => ({ method: 'POST', path: `/v1/tenants/${ids.tenant}/deliveries/${ids.failed}/replay` }),
  // A pause, then the reactivation that replays what the pause missed: another engine operation behind the same PATCH.
  'updateEndpoint:pause': async () => ({
    method: 'PATCH',
    path: `/v1/tenants/${ids.tenant}/endpoints/${ids.endpoint}`,
    body: { status: 'paused' },
    action: 'endpoint.update',
  }),
  'updateEndpoint:catch_up': async () => ({
    method: 'PATCH',
    path: `/v1/tenants/${ids.tenant}/endpoints/${ids.endpoint}`,
    body: { status: 'active', catch_up: true },
    action: 'endpoint.reactivate',
  }),
  // An endpoint created with egress settings: they are stored right after the audited creation.
  'createEndpoint:egress': async () => ({
    method: 'POST',
    path: `/v1/tenants/${ids.tenant}/endpoints`,
    body: { url: receiver.url, proxy: 'none', event_types: ['never.sent'] },
    action: 'endpoint.create',
  }),
  deleteEndpoint: async () => ({ method: 'DELETE', path: `/v1/tenants/${ids.tenant}/endpoints/${ids.endpoint}` }),
  deleteTenant: async () => {
    const other = await t.tenant('Doomed');
    return { method: 'DELETE', path: `/v1/tenants/${other}` };
  },
};

test('every write operation of the OpenAPI document leaves an audit entry with its request id', async () => {
  const doc = JSON.parse(readFileSync(new URL('../openapi.json', import.meta.url), 'utf8')) as {
    paths: Record<string, Record<string, { operationId: string }>>;
  };
  const writes = Object.values(doc.paths).flatMap((ops) =>
    Object.entries(ops)
      .filter(([m]) => ['post', 'put', 'patch', 'delete'].includes(m))
      .map(([, op]) => op.operationId),
  );
  const missing = writes.filter((op) => !(op in SAMPLES) && !(op in NOT_AUDITED));
  assert.deepEqual(missing, [], 'write operations without a sample request here: add one (and audit the operation)');
  assert.deepEqual(
    Object.keys(SAMPLES).filter((op) => !writes.includes(op.split(':')[0]!)),
    [],
    'samples for operations the document no longer has',
  );

  for (const [op, sample] of Object.entries(SAMPLES)) {
    const s = await sample();
    const r = await t.api(s.method, s.path, { body: s.body });
    assert.ok(r.status < 300, `${op}: ${r.status} ${JSON.stringify(r.body)}`);
    if (op === 'createTenant') ids.tenant = r.body.id;
    if (op === 'createEndpoint') ids.endpoint = r.body.id;
    const requestId = r.headers.get('x-request-id');
    const log = await t.api('GET', `/v1/audit-log?limit=200`);
    const entry = log.body.items.find((e: { actor: { request_id: string } }) => e.actor.request_id === requestId);
    assert.ok(entry, `${op} (${s.method} ${s.path}) left no audit entry`);
    assert.deepEqual([entry.actor.kind, entry.actor.id, entry.actor.ip], ['admin', 'admin', '127.0.0.1'], op);
    if (s.action !== undefined) assert.equal(entry.action, s.action, op);
  }

  const log = (await t.api('GET', '/v1/audit-log?limit=200')).body.items as Array<Record<string, any>>;
  const text = JSON.stringify(log);
  assert.ok(!text.includes('k-123') && !text.includes('k-456'), 'custom header values are never written');
  const rotate = log.find((e) => e.action === 'endpoint.secret_rotate')!;
  assert.match(rotate.details.new_kid, /^sec_/);
  const update = log.find((e) => e.action === 'endpoint.update' && e.changes.description)!;
  assert.deepEqual(update.changes.description, { before: '', after: 'audited' });
  assert.deepEqual((await t.api('GET', '/v1/audit-log/verify')).body, {
    ok: true,
    checked: log.length,
    from: { seq: 0, hash: '' },
    broken: null,
  });
});

test("a tenant's key reads its own tenant's entries only; the installation-wide log and verify are the admin's", async () => {
  const key = (await ok('POST', `/v1/tenants/${ids.tenant}/api-keys`, { name: 'reader' })).key as string;
  const own = await t.api('GET', `/v1/tenants/${ids.tenant}/audit-log?limit=200`, { token: key });
  assert.equal(own.status, 200);
  assert.ok(own.body.items.length > 5);
  assert.ok(own.body.items.every((e: { tenant_id: string }) => e.tenant_id === ids.tenant));
  assert.equal((await t.api('GET', '/v1/audit-log', { token: key })).status, 403);
  assert.equal((await t.api('GET', '/v1/audit-log/verify', { token: key })).status, 403);
  const byTenant = await t.api('GET', `/v1/audit-log?tenant=${ids.tenant}&action=endpoint.update`);
  // The edit, the egress-only edit and the pause.
  assert.deepEqual(
    byTenant.body.items.map((e: { action: string }) => e.action),
    ['endpoint.update', 'endpoint.update', 'endpoint.update'],
  );
});

test('the NDJSON export streams every entry, one per line, newest first, as the JSON pages list them', async () => {
  const all = (await t.api('GET', '/v1/audit-log?limit=200')).body.items as Array<{ seq: number }>;
  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(t.url + path, { headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...headers } });
  const r = await get('/v1/audit-log?format=ndjson');
  assert.equal(r.status, 200);
  assert.match(r.headers.get('content-type') ?? '', /application\/x-ndjson/);
  const lines = (await r.text())
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { seq: number });
  assert.deepEqual(
    lines.map((e) => e.seq),
    all.map((e) => e.seq),
  );
  const viaAccept = await get('/v1/audit-log', { accept: 'application/x-ndjson' });
  assert.equal((await viaAccept.text()).trim().split('\n').length, all.length);
});
