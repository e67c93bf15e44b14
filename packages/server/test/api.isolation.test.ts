// Tenant isolation over real HTTP on every tenant-scoped route, listed from the app's own OpenAPI document: tenant
// A's key on tenant B's path, and A's key on A's own path with B's ids, must answer 404 and leave B untouched.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startReceiver, startTestServer, type TestServer, until } from './server-harness.ts';

interface RouteCase {
  /** A body that would be valid for the route, so a 404 cannot come from validation instead of isolation. */
  body?: unknown;
  /**
   * The code when A's key asks on A's own path with B's ids; absent for routes whose only id is the tenant.
   * Those are still tried on B's path, which is the only way they can reach another tenant.
   */
  foreignId?: string;
}

// Every route under /v1/tenants/{tenant}. The first test fails if the app serves one that is not listed here,
// so a new route cannot ship without being tried against another tenant.
const ROUTES: Record<string, RouteCase> = {
  'GET /v1/tenants/{tenant}': {},
  'PATCH /v1/tenants/{tenant}': { body: { name: 'stolen' } },
  'DELETE /v1/tenants/{tenant}': {},
  'POST /v1/tenants/{tenant}/api-keys': { body: { name: 'stolen' } },
  'GET /v1/tenants/{tenant}/api-keys': {},
  'DELETE /v1/tenants/{tenant}/api-keys/{key}': { foreignId: 'api_key_not_found' },
  'GET /v1/tenants/{tenant}/audit-log': {},
  'GET /v1/tenants/{tenant}/usage': {},
  'GET /v1/tenants/{tenant}/breaker': {},
  'POST /v1/tenants/{tenant}/breaker': { body: { state: 'closed' } },
  'POST /v1/tenants/{tenant}/breaker/reset': {},
  'GET /v1/tenants/{tenant}/deliveries': {},
  'GET /v1/tenants/{tenant}/deliveries/{delivery}': { foreignId: 'delivery_not_found' },
  'POST /v1/tenants/{tenant}/deliveries/{delivery}/replay': { foreignId: 'delivery_not_found' },
  'POST /v1/tenants/{tenant}/deliveries/{delivery}/dismiss': { foreignId: 'delivery_not_found' },
  'POST /v1/tenants/{tenant}/deliveries/{delivery}/retry': { foreignId: 'delivery_not_found' },
  'POST /v1/tenants/{tenant}/endpoints': { body: { url: 'http://127.0.0.1:9/stolen' } },
  'GET /v1/tenants/{tenant}/endpoints': {},
  'GET /v1/tenants/{tenant}/endpoints/{endpoint}': { foreignId: 'endpoint_not_found' },
  'PATCH /v1/tenants/{tenant}/endpoints/{endpoint}': {
    body: { description: 'stolen', status: 'paused' },
    foreignId: 'endpoint_not_found',
  },
  'DELETE /v1/tenants/{tenant}/endpoints/{endpoint}': { foreignId: 'endpoint_not_found' },
  'GET /v1/tenants/{tenant}/endpoints/{endpoint}/breaker': { foreignId: 'endpoint_not_found' },
  'POST /v1/tenants/{tenant}/endpoints/{endpoint}/breaker/reset': { foreignId: 'endpoint_not_found' },
  'POST /v1/tenants/{tenant}/endpoints/{endpoint}/replays': {
    body: { since: '2000-01-01T00:00:00Z', include_skipped: true },
    foreignId: 'endpoint_not_found',
  },
  'GET /v1/tenants/{tenant}/endpoints/{endpoint}/secret': { foreignId: 'endpoint_not_found' },
  'POST /v1/tenants/{tenant}/endpoints/{endpoint}/secret/rotate': {
    body: { overlap_seconds: 0 },
    foreignId: 'endpoint_not_found',
  },
  'POST /v1/tenants/{tenant}/endpoints/{endpoint}/test': { foreignId: 'endpoint_not_found' },
  'POST /v1/tenants/{tenant}/endpoints/{endpoint}/retry': { foreignId: 'endpoint_not_found' },
  'POST /v1/tenants/{tenant}/endpoints/{endpoint}/doctor': {
    body: { type: 'order.created' },
    foreignId: 'endpoint_not_found',
  },
  'POST /v1/tenants/{tenant}/events': { body: { event_id: 'stolen-1', type: 'order.created', data: {} } },
  'POST /v1/tenants/{tenant}/events/batch': {
    body: { events: [{ event_id: 'stolen-2', type: 'order.created', data: {} }] },
  },
  'GET /v1/tenants/{tenant}/events': {},
  'GET /v1/tenants/{tenant}/events/{event_id}': { foreignId: 'event_not_found' },
  'GET /v1/tenants/{tenant}/notices': {},
  'POST /v1/tenants/{tenant}/portal-links': {},
  'GET /v1/tenants/{tenant}/stats': {},
  'GET /v1/tenants/{tenant}/stats/minutes': {},
  'GET /v1/tenants/{tenant}/replays/{replay}': { foreignId: 'replay_not_found' },
};

let t: TestServer;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let a: string;
let keyA: string;
/** Tenant B and everything it owns that a route can name. */
const b = {
  tenant: '',
  key: '',
  spareKeyId: '',
  spareKey: '',
  endpoint: '',
  eventId: 'evt-b-1',
  delivery: '',
  replay: '',
  secret: '',
  kid: '',
};

before(async () => {
  t = await startTestServer();
  // 400 makes strict-policy deliveries fail at once: B gets a dead letter to name, and nothing retries later.
  receiver = await startReceiver(() => 400);
  a = await t.tenant('A');
  b.tenant = await t.tenant('B');
  keyA = (await t.api('POST', `/v1/tenants/${a}/api-keys`, { body: { name: 'a' } })).body.key;
  b.key = (await t.api('POST', `/v1/tenants/${b.tenant}/api-keys`, { body: { name: 'b' } })).body.key;
  const spare = (await t.api('POST', `/v1/tenants/${b.tenant}/api-keys`, { body: { name: 'b-spare' } })).body;
  b.spareKeyId = spare.id;
  b.spareKey = spare.key;
  const ep = await t.api('POST', `/v1/tenants/${b.tenant}/endpoints`, {
    body: { url: receiver.url, policy: 'strict', description: 'b-original' },
    token: b.key,
  });
  b.endpoint = ep.body.id;
  const secret = await t.api('GET', `/v1/tenants/${b.tenant}/endpoints/${b.endpoint}/secret`, { token: b.key });
  b.secret = secret.body.secret;
  b.kid = secret.body.kid;
  const ev = await t.api('POST', `/v1/tenants/${b.tenant}/events`, {
    body: { event_id: b.eventId, type: 'order.created', data: {} },
    token: b.key,
  });
  b.delivery = ev.body.deliveries[0].id;
  await until(
    () => t.api('GET', `/v1/tenants/${b.tenant}/deliveries/${b.delivery}`, { token: b.key }),
    (r) => r.body.status === 'failed',
  );
  const rp = await t.api('POST', `/v1/tenants/${b.tenant}/deliveries/${b.delivery}/replay`, { token: b.key });
  b.replay = rp.body.replay_id;
  await until(
    () => t.api('GET', `/v1/tenants/${b.tenant}/replays/${b.replay}`, { token: b.key }),
    (r) => r.body.done === true,
  );
  await until(
    () => t.api('GET', `/v1/tenants/${b.tenant}/deliveries/${b.delivery}`, { token: b.key }),
    (r) => r.body.status === 'failed',
  );
  // B's breakers are open, so a reset that reached them would show.
  const now = Date.now();
  const open = {
    state: 'open' as const,
    pauseMs: 3_600_000,
    openedAt: now,
    nextProbeAt: now + 3_600_000,
    probeDeliveryId: null,
    updatedAt: now,
  };
  await t.server.runtime.store.breakers.saveBreaker(
    { scopeKey: `tenant:${b.tenant}`, tenantId: b.tenant, ...open },
    null,
  );
  await t.server.runtime.store.breakers.saveBreaker(
    { scopeKey: `endpoint:${b.endpoint}`, tenantId: b.tenant, ...open },
    null,
  );
});
after(async () => {
  await receiver?.close();
  await t?.close();
});

function pathFor(template: string, tenant: string): string {
  const ids: Record<string, string> = {
    tenant,
    key: b.spareKeyId,
    endpoint: b.endpoint,
    delivery: b.delivery,
    event_id: b.eventId,
    replay: b.replay,
  };
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const id = ids[name];
    if (id === undefined) throw new Error(`no id of tenant B for path parameter {${name}} in ${template}: add one`);
    return encodeURIComponent(id);
  });
}

/** What B owns, read with B's own key; identical before and after A's attempts. */
async function snapshotOfB() {
  const as = { token: b.key };
  const tenant = await t.api('GET', `/v1/tenants/${b.tenant}`, as);
  const endpoints = await t.api('GET', `/v1/tenants/${b.tenant}/endpoints`, as);
  const secret = await t.api('GET', `/v1/tenants/${b.tenant}/endpoints/${b.endpoint}/secret`, as);
  const keys = await t.api('GET', `/v1/tenants/${b.tenant}/api-keys`, as);
  const deliveries = await t.api('GET', `/v1/tenants/${b.tenant}/deliveries`, as);
  const delivery = await t.api('GET', `/v1/tenants/${b.tenant}/deliveries/${b.delivery}`, as);
  const breaker = await t.api('GET', `/v1/tenants/${b.tenant}/breaker`, as);
  const endpointBreaker = await t.api('GET', `/v1/tenants/${b.tenant}/endpoints/${b.endpoint}/breaker`, as);
  const spareKey = await t.api('GET', `/v1/tenants/${b.tenant}`, { token: b.spareKey });
  return {
    tenant: tenant.body,
    endpoints: endpoints.body,
    secrets: secret.body.secrets.map((s: { kid: string; expires_at: string | null }) => [s.kid, s.expires_at]),
    keys: keys.body.items.map((k: { id: string; name: string }) => [k.id, k.name]),
    deliveries: deliveries.body.items.map((d: { id: string; status: string; attempt_count: number }) => [
      d.id,
      d.status,
      d.attempt_count,
    ]),
    attempts: delivery.body.attempts.length,
    breaker: breaker.body.breaker.state,
    endpointBreaker: endpointBreaker.body.state,
    spareKeyWorks: spareKey.status,
    replay: (await t.api('GET', `/v1/tenants/${b.tenant}/replays/${b.replay}`, as)).body,
    requestsToBsReceiver: receiver.received.length,
  };
}

/** No id or secret of B in an answer given to A. */
function assertNothingOfB(body: unknown, what: string) {
  const text = JSON.stringify(body);
  for (const secretOrId of [b.endpoint, b.delivery, b.replay, b.secret, b.kid, b.spareKeyId, b.eventId]) {
    assert.ok(!text.includes(secretOrId), `${what} leaked ${secretOrId}: ${text}`);
  }
}

test('every tenant-scoped route the app serves is in the isolation table, and nothing else is', async () => {
  const doc = await t.api('GET', '/openapi.json', { token: null });
  assert.equal(doc.status, 200);
  const served = Object.entries(doc.body.paths as Record<string, Record<string, unknown>>)
    .filter(([path]) => path === '/v1/tenants/{tenant}' || path.startsWith('/v1/tenants/{tenant}/'))
    .flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`))
    .sort();
  assert.ok(served.length >= 28, `only ${served.length} tenant routes in the OpenAPI document`);
  const listed = Object.keys(ROUTES).sort();
  assert.deepEqual(
    served.filter((r) => !(r in ROUTES)),
    [],
    "tenant-scoped routes never tried with another tenant's key and ids",
  );
  assert.deepEqual(
    listed.filter((r) => !served.includes(r)),
    [],
    'listed routes the app does not serve',
  );
  // The document is the app's own (built from its registered routes): an unlisted method on a listed path is 404.
  assert.equal((await t.api('PUT', `/v1/tenants/${a}/breaker`, { body: {} })).status, 404);
});

test("tenant A's key on tenant B's path, with B's ids: 404 tenant_not_found on every route, nothing of B in the answer", async () => {
  const before = await snapshotOfB();
  for (const [route, c] of Object.entries(ROUTES)) {
    const [method, template] = route.split(' ');
    const r = await t.api(method, pathFor(template, b.tenant), { token: keyA, body: c.body });
    assert.equal(r.status, 404, `${route}: ${JSON.stringify(r.body)}`);
    assert.equal(r.body.error.code, 'tenant_not_found', route);
    assertNothingOfB(r.body, route);
  }
  assert.deepEqual(await snapshotOfB(), before, "A's requests changed something of B");
});

test("tenant A's key on A's own path with B's ids: the resource's 404 on every route that names one, B untouched", async () => {
  const before = await snapshotOfB();
  const named = Object.entries(ROUTES).filter(([, c]) => c.foreignId !== undefined);
  assert.ok(named.length >= 14);
  for (const [route, c] of named) {
    const [method, template] = route.split(' ');
    const r = await t.api(method, pathFor(template, a), { token: keyA, body: c.body });
    assert.equal(r.status, 404, `${route}: ${JSON.stringify(r.body)}`);
    assert.equal(r.body.error.code, c.foreignId, route);
    assertNothingOfB(r.body, route);
  }
  // Filters naming B's ids select nothing in A.
  const filtered = await t.api('GET', `/v1/tenants/${a}/deliveries?endpoint_id=${b.endpoint}`, { token: keyA });
  assert.equal(filtered.status, 200);
  assert.deepEqual(filtered.body.items, []);
  // The admin token passes every tenant check, so only the engine's and the store's own scoping stand between
  // A's path and B's rows here: the same answers.
  for (const [route, c] of named) {
    const [method, template] = route.split(' ');
    const r = await t.api(method, pathFor(template, a), { body: c.body });
    assert.equal(r.status, 404, `admin: ${route}: ${JSON.stringify(r.body)}`);
    assert.equal(r.body.error.code, c.foreignId, `admin: ${route}`);
  }
  assert.deepEqual(await snapshotOfB(), before, "requests on A's path changed something of B");
  // And B's own key still does all of it: the 404s above were isolation, not broken routes.
  assert.equal((await t.api('GET', `/v1/tenants/${b.tenant}/events/${b.eventId}`, { token: b.key })).status, 200);
  assert.equal((await t.api('GET', `/v1/tenants/${b.tenant}/replays/${b.replay}`, { token: b.key })).status, 200);
  const rotated = await t.api('POST', `/v1/tenants/${b.tenant}/endpoints/${b.endpoint}/secret/rotate`, {
    body: { overlap_seconds: 60 },
    token: b.key,
  });
  assert.equal(rotated.status, 200);
  assert.notEqual(rotated.body.kid, b.kid);
  assert.equal(
    (await t.api('POST', `/v1/tenants/${b.tenant}/endpoints/${b.endpoint}/breaker/reset`, { token: b.key })).body.state,
    'closed',
  );
  assert.equal(
    (await t.api('DELETE', `/v1/tenants/${b.tenant}/api-keys/${b.spareKeyId}`, { token: b.key })).status,
    204,
  );
});
