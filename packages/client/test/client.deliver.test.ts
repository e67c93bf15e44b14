// The typed client against a real server (temp SQLite, 127.0.0.1:0): tenant → endpoint → event → a delivery that succeeds.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { ADMIN_TOKEN, startReceiver, startTestServer, until, within } from '../../server/test/server-harness.ts';
import {
  type CreateEndpointResponse,
  createHooklineClient,
  type Delivery,
  type DeliveryDetail,
  type EventAccepted,
  HooklineApiError,
  type Tenant,
  unwrap,
} from '../src/index.ts';

test('create a tenant, an endpoint and an event, then read the delivery until it succeeds at a loopback receiver', async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const receiver = await startReceiver();
  t.after(() => receiver.close());
  const hookline = createHooklineClient({ baseUrl: `${server.url}/`, token: ADMIN_TOKEN });

  const created = await hookline.POST('/v1/tenants', { body: { name: 'Acme', owner_emails: ['ops@acme.test'] } });
  assert.equal(created.response.status, 201);
  const tenant: Tenant = unwrap(created);
  assert.match(tenant.id, /^ten_/);
  assert.deepEqual(tenant.owner_emails, ['ops@acme.test']);

  const endpoint: CreateEndpointResponse = unwrap(
    await hookline.POST('/v1/tenants/{tenant}/endpoints', {
      params: { path: { tenant: tenant.id } },
      body: { url: receiver.url, event_types: ['order.*'] },
    }),
  );
  assert.match(endpoint.id, /^ep_/);
  assert.match(endpoint.secret ?? '', /^whsec_/);
  assert.equal(endpoint.public_key, null, 'an HMAC endpoint has no public key');
  assert.equal(endpoint.status, 'active');

  const sent = await hookline.POST('/v1/tenants/{tenant}/events', {
    params: { path: { tenant: tenant.id } },
    body: { event_id: 'order-1001', type: 'order.created', data: { order: 1001, total: '12.50' } },
  });
  assert.equal(sent.response.status, 202);
  const accepted: EventAccepted = unwrap(sent);
  assert.equal(accepted.duplicate, false);
  assert.equal(accepted.event.event_id, 'order-1001');
  assert.equal(accepted.deliveries.length, 1);
  const first: Delivery = accepted.deliveries[0];
  assert.equal(first.endpoint_id, endpoint.id);

  const done: DeliveryDetail = await until(
    async () =>
      unwrap(
        await hookline.GET('/v1/tenants/{tenant}/deliveries/{delivery}', {
          params: { path: { tenant: tenant.id, delivery: first.id } },
        }),
      ),
    (d) => d.status === 'succeeded' || d.status === 'failed',
    { timeoutMs: 20_000 },
  );
  assert.equal(done.status, 'succeeded');
  assert.equal(done.attempts.length, 1);
  assert.equal(done.attempts[0].outcome, 'success');
  assert.equal(done.attempts[0].response_status, 200);
  await receiver.waitFor(1);
  const body = JSON.parse(receiver.received[0].body.toString('utf8'));
  assert.deepEqual(body.data, { order: 1001, total: '12.50' });

  // The list route speaks the same types, query parameters included.
  const page = unwrap(
    await hookline.GET('/v1/tenants/{tenant}/deliveries', {
      params: { path: { tenant: tenant.id }, query: { limit: 10 } },
    }),
  );
  assert.deepEqual(
    page.items.map((d) => [d.id, d.status]),
    [[first.id, 'succeeded']],
  );
  assert.equal(page.next_cursor, null);

  // A batch's items are free-form objects in the document (each is checked on its own): typed as any object.
  const batch = unwrap(
    await hookline.POST('/v1/tenants/{tenant}/events/batch', {
      params: { path: { tenant: tenant.id } },
      body: { events: [{ type: 'order.paid', data: { order: 1001 } }, { data: {} }] },
    }),
  );
  assert.deepEqual([batch.accepted, batch.failed], [1, 1]);
  assert.equal(batch.results[1].error?.code, 'invalid_request');
});

test('errors arrive as the typed Error body, and unwrap throws them as HooklineApiError', async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const hookline = createHooklineClient({ baseUrl: server.url, token: ADMIN_TOKEN });

  const missing = await hookline.GET('/v1/tenants/{tenant}', { params: { path: { tenant: 'ten_missing' } } });
  assert.equal(missing.response.status, 404);
  assert.equal(missing.data, undefined);
  assert.equal(missing.error?.error.code, 'tenant_not_found');
  assert.equal(missing.error?.error.request_id, missing.response.headers.get('x-request-id'));

  // The types refuse what the server refuses; sent anyway, the 400 names the field.
  // @ts-expect-error name must be a string
  const bad = await hookline.POST('/v1/tenants', { body: { name: 123 } });
  let err: unknown;
  try {
    unwrap(bad);
  } catch (e) {
    err = e;
  }
  assert.ok(err instanceof HooklineApiError, String(err));
  assert.equal(err.status, 400);
  assert.equal(err.code, 'invalid_request');
  assert.deepEqual(err.details, [{ in: 'body', path: '/name', message: 'must be string' }]);
  assert.match(err.requestId ?? '', /.+/);

  const anonymous = createHooklineClient({ baseUrl: server.url });
  await assert.rejects(
    async () => unwrap(await anonymous.GET('/v1/tenants', {})),
    (e: unknown) => e instanceof HooklineApiError && e.status === 401 && e.code === 'credentials_missing',
  );
});

test('timeoutMs bounds a server that accepts the request and never answers', async (t) => {
  const silent = createServer(() => {});
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  t.after(() => {
    silent.closeAllConnections();
    silent.close();
  });
  const hookline = createHooklineClient({
    baseUrl: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`,
    token: ADMIN_TOKEN,
    timeoutMs: 200,
  });
  await within(
    'the client to give up',
    10_000,
    assert.rejects(hookline.GET('/healthz'), (e: unknown) => (e as Error).name === 'TimeoutError'),
  );
  assert.throws(() => createHooklineClient({ baseUrl: 'http://127.0.0.1:1', timeoutMs: 0 }), RangeError);
});
