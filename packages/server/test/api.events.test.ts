// Events over real HTTP: the signed end-to-end flow, idempotent ingest, batches, event types and schema checks.
import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { after, before, test } from 'node:test';
import { startReceiver, startTestServer, type TestServer, until } from './server-harness.ts';

let t: TestServer;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let ten: string;
let ep: { id: string; secret: string };

before(async () => {
  t = await startTestServer();
  receiver = await startReceiver();
  ten = await t.tenant();
  const r = await t.api('POST', `/v1/tenants/${ten}/endpoints`, {
    body: { url: receiver.url, event_types: ['order.*', 'payment.*', 'invoice.paid'] },
  });
  ep = r.body;
});
after(async () => {
  await receiver.close();
  await t.close();
});

/** Verifies `X-Webhook-Signature: t=…,v1=…,kid=…` as a receiver would, with node:crypto only. */
function verifyHookline(headers: Record<string, unknown>, body: Buffer, secret: string): boolean {
  const header = String(headers['x-webhook-signature']);
  const parts = header.split(',').map((p) => p.split('='));
  const ts = parts.find(([k]) => k === 't')?.[1];
  if (!ts || ts !== headers['x-webhook-timestamp']) return false;
  if (Math.abs(Date.now() / 1000 - Number(ts)) > 300) return false;
  // The key is the secret exactly as the API shows it, whsec_ prefix included (docs/rules.md#scheme-hookline).
  const expected = createHmac('sha256', secret).update(`${ts}.`).update(body).digest();
  return parts
    .filter(([k]) => k === 'v1')
    .some(([, v]) => {
      const got = Buffer.from(v, 'hex');
      return got.length === expected.length && timingSafeEqual(got, expected);
    });
}

test('full flow: event → signed webhook that verifies → delivery succeeded with its attempt', async () => {
  const sent = await t.api('POST', `/v1/tenants/${ten}/events`, {
    body: {
      event_id: 'ord_1',
      type: 'order.created',
      occurred_at: '2026-01-05T12:00:00Z',
      data: { order: 1, total: 990 },
    },
  });
  assert.equal(sent.status, 202);
  assert.equal(sent.body.duplicate, false);
  assert.equal(sent.body.event.event_id, 'ord_1');
  assert.match(sent.body.event.id, /^evt_/);
  assert.equal(sent.body.deliveries.length, 1);
  const dlv = sent.body.deliveries[0];
  assert.match(dlv.id, /^dlv_/);
  assert.equal(dlv.endpoint_id, ep.id);
  await receiver.waitFor(1);
  const got = receiver.received.find((r) => r.headers['x-webhook-id'] === 'ord_1')!;
  assert.equal(got.headers['x-webhook-delivery'], dlv.id);
  assert.equal(got.headers['content-type'], 'application/json');
  assert.ok(verifyHookline(got.headers, got.body, ep.secret), 'signature verifies');
  assert.ok(
    !verifyHookline(got.headers, Buffer.concat([got.body, Buffer.from(' ')]), ep.secret),
    'tampered body fails',
  );
  assert.deepEqual(JSON.parse(got.body.toString()), {
    event_id: 'ord_1',
    type: 'order.created',
    version: '1',
    occurred_at: '2026-01-05T12:00:00Z',
    data: { order: 1, total: 990 },
  });
  const d = await until(
    () => t.api('GET', `/v1/tenants/${ten}/deliveries/${dlv.id}`),
    (r) => r.body.status === 'succeeded',
  );
  assert.equal(d.body.attempt_count, 1);
  assert.equal(d.body.attempts.length, 1);
  const a = d.body.attempts[0];
  assert.deepEqual(
    [a.n, a.trigger, a.outcome, a.response_status, a.response_body_excerpt, a.error_class],
    [1, 'scheduled', 'success', 200, 'ok', null],
  );
  assert.equal(a.request_headers['X-Webhook-Signature'], got.headers['x-webhook-signature']);
  assert.equal(typeof a.duration_ms, 'number');
  assert.deepEqual(d.body.payload, JSON.parse(got.body.toString()));
  const ev = await t.api('GET', `/v1/tenants/${ten}/events/ord_1`);
  assert.equal(ev.status, 200);
  assert.equal(ev.body.deliveries[0].status, 'succeeded');
  assert.equal((await t.api('GET', `/v1/tenants/${ten}/events/nope`)).body.error.code, 'event_not_found');
});

test('idempotent ingest: same body → the same event; different body → 409 event_conflict', async () => {
  const body = { event_id: 'pay_1', type: 'payment.created', data: { amount: 5 } };
  const first = await t.api('POST', `/v1/tenants/${ten}/events`, { body });
  const again = await t.api('POST', `/v1/tenants/${ten}/events`, { body });
  assert.equal(again.status, 202);
  assert.equal(again.body.duplicate, true);
  assert.equal(again.body.event.id, first.body.event.id);
  assert.deepEqual(
    again.body.deliveries.map((d: { id: string }) => d.id),
    first.body.deliveries.map((d: { id: string }) => d.id),
  );
  const conflict = await t.api('POST', `/v1/tenants/${ten}/events`, { body: { ...body, data: { amount: 6 } } });
  assert.equal(conflict.status, 409);
  assert.equal(conflict.body.error.code, 'event_conflict');
  assert.match(conflict.body.error.message, /pay_1/);
});

test('event input errors: missing type/data, bad occurred_at, unsubscribed type gets no delivery', async () => {
  const noData = await t.api('POST', `/v1/tenants/${ten}/events`, { body: { type: 'order.created' } });
  assert.equal(noData.status, 400);
  assert.match(noData.body.error.message, /data/);
  const badTime = await t.api('POST', `/v1/tenants/${ten}/events`, {
    body: { type: 'order.created', occurred_at: 'yesterday', data: {} },
  });
  assert.equal(badTime.status, 400);
  assert.match(badTime.body.error.message, /occurred_at/);
  const other = await t.api('POST', `/v1/tenants/${ten}/events`, { body: { type: 'kyc.approved', data: {} } });
  assert.equal(other.status, 202);
  assert.equal(other.body.deliveries.length, 0);
});

test('batch: per-item results in one request; over 1,000 → 400 batch_too_large', async () => {
  const events = [
    { event_id: 'b1', type: 'order.created', data: { n: 1 } },
    { event_id: 'b2', type: 'order.created', data: { n: 2 } },
    { type: 'order.created' },
    { event_id: 'pay_1', type: 'payment.created', data: { amount: 99 } },
    { event_id: 'b1', type: 'order.created', data: { n: 1 } },
  ];
  const r = await t.api('POST', `/v1/tenants/${ten}/events/batch`, { body: { events } });
  assert.equal(r.status, 202);
  assert.equal(r.body.results.length, 5);
  assert.deepEqual(
    r.body.results.map((x: { ok: boolean }) => x.ok),
    [true, true, false, false, true],
  );
  assert.equal(r.body.results[2].error.code, 'invalid_request');
  assert.match(r.body.results[2].error.message, /\/events\/2\//);
  assert.deepEqual(
    r.body.results[2].error.details.map((d: { path: string }) => d.path),
    ['/events/2/data'],
  );
  assert.equal(r.body.results[3].error.code, 'event_conflict');
  assert.equal(r.body.results[0].deliveries.length, 1);
  assert.equal(r.body.results[4].event.id, r.body.results[0].event.id);
  assert.deepEqual([r.body.accepted, r.body.failed], [3, 2]);
  const many = Array.from({ length: 1001 }, (_, i) => ({ type: 'x.y', data: { i } }));
  const tooMany = await t.api('POST', `/v1/tenants/${ten}/events/batch`, { body: { events: many } });
  assert.equal(tooMany.status, 400);
  assert.equal(tooMany.body.error.code, 'batch_too_large');
  const full = await t.api('POST', `/v1/tenants/${ten}/events/batch`, {
    body: { events: many.slice(0, 1000).map((e) => ({ ...e, type: 'audit.logged' })) },
  });
  assert.equal(full.status, 202);
  assert.equal(full.body.accepted, 1000);
});

test('event types: define, read, validate data (400 naming the path), money override', async () => {
  const def = {
    description: 'An invoice was paid',
    versions: {
      '1': {
        schema: {
          type: 'object',
          required: ['invoice_id', 'amount'],
          properties: {
            invoice_id: { type: 'string' },
            amount: { type: 'integer', minimum: 0 },
            lines: { type: 'array', items: { type: 'object', properties: { qty: { type: 'integer' } } } },
          },
        },
        example: { invoice_id: 'inv_1', amount: 100 },
      },
    },
    money: true,
  };
  const put = await t.api('PUT', '/v1/event-types/invoice.paid', { body: def });
  assert.equal(put.status, 200);
  assert.equal(put.body.name, 'invoice.paid');
  const got = await t.api('GET', '/v1/event-types/invoice.paid');
  assert.deepEqual(got.body.versions, def.versions);
  assert.equal(got.body.money, true);
  assert.ok(
    (await t.api('GET', '/v1/event-types')).body.items.some((x: { name: string }) => x.name === 'invoice.paid'),
  );
  assert.equal((await t.api('GET', '/v1/event-types/nope.nope')).body.error.code, 'event_type_not_found');

  const missing = await t.api('POST', `/v1/tenants/${ten}/events`, {
    body: { type: 'invoice.paid', data: { invoice_id: 'inv_1' } },
  });
  assert.equal(missing.status, 400);
  assert.equal(missing.body.error.code, 'schema_validation_failed');
  assert.match(missing.body.error.message, /\/data.*amount/);
  const nested = await t.api('POST', `/v1/tenants/${ten}/events`, {
    body: { type: 'invoice.paid', data: { invoice_id: 'i', amount: 1, lines: [{ qty: 1 }, { qty: 'two' }] } },
  });
  assert.equal(nested.body.error.code, 'schema_validation_failed');
  assert.match(nested.body.error.message, /\/data\/lines\/1\/qty/);
  const v2 = await t.api('POST', `/v1/tenants/${ten}/events`, {
    body: { type: 'invoice.paid', version: '2', data: {} },
  });
  assert.equal(v2.body.error.code, 'unknown_event_type');
  const ok = await t.api('POST', `/v1/tenants/${ten}/events`, {
    body: { type: 'invoice.paid', data: { invoice_id: 'i', amount: 1 } },
  });
  assert.equal(ok.status, 202);
  assert.equal(ok.body.event.is_money, true);
  assert.equal(ok.body.deliveries[0].is_money, true);

  // The registry's rule overrides the configured money rules: refund.completed is money by default.
  await t.api('PUT', '/v1/event-types/refund.completed', { body: { versions: { '1': { schema: {} } }, money: false } });
  const refund = await t.api('POST', `/v1/tenants/${ten}/events`, { body: { type: 'refund.completed', data: {} } });
  assert.equal(refund.body.event.is_money, false);
  const payment = await t.api('POST', `/v1/tenants/${ten}/events`, {
    body: { type: 'payment.status_changed', data: { status: 'paid' } },
  });
  assert.equal(payment.body.event.is_money, true);

  const badDef = await t.api('PUT', '/v1/event-types/x.bad', {
    body: { versions: { '1': { schema: { type: 'object', required: ['a'] }, example: {} } } },
  });
  assert.equal(badDef.status, 400);
  assert.match(badDef.body.error.message, /example/);
  const badSchema = await t.api('PUT', '/v1/event-types/x.bad', {
    body: { versions: { '1': { schema: { type: 'nonsense' } } } },
  });
  assert.equal(badSchema.status, 400);
  assert.match(badSchema.body.error.message, /\/versions\/1\/schema/);
  assert.equal((await t.api('PUT', '/v1/event-types/x.bad', { body: { versions: {} } })).status, 400);
});

test('strict event types: an unknown type is 400 unknown_event_type', async () => {
  const s = await startTestServer({ config: { strictEventTypes: true } });
  try {
    const st = await s.tenant();
    const r = await s.api('POST', `/v1/tenants/${st}/events`, { body: { type: 'never.defined', data: {} } });
    assert.equal(r.status, 400);
    assert.equal(r.body.error.code, 'unknown_event_type');
    await s.api('PUT', '/v1/event-types/now.defined', { body: { versions: { '1': { schema: { type: 'object' } } } } });
    assert.equal(
      (await s.api('POST', `/v1/tenants/${st}/events`, { body: { type: 'now.defined', data: {} } })).status,
      202,
    );
  } finally {
    await s.close();
  }
});

test('the bytes sent are the canonical envelope of what was received: data as JSON.stringify of the parsed value', async () => {
  // Whitespace, escapes, number forms and key order as a client might send them; single and batch alike.
  const data = '{ "b" : 1.50, "a":"\\u00e9\\/x", "2": [1e2, -0.0, true], "1": null }';
  const canonical = `{"event_id":"canon_1","type":"order.canonical","version":"1","occurred_at":"2026-01-05T12:00:00Z","data":${JSON.stringify(JSON.parse(data))}}`;
  assert.equal(
    JSON.stringify(JSON.parse(data)),
    '{"1":null,"2":[100,0,true],"b":1.5,"a":"é/x"}',
    'the form documented in docs/performance.md',
  );
  const single = await t.api('POST', `/v1/tenants/${ten}/events`, {
    raw: `{"type": "order.canonical", "event_id": "canon_1", "data": ${data}, "occurred_at": "2026-01-05T12:00:00Z"}`,
    headers: { 'content-type': 'application/json' },
  });
  assert.equal(single.status, 202, JSON.stringify(single.body));
  const batch = await t.api('POST', `/v1/tenants/${ten}/events/batch`, {
    raw: `{"events": [ {"type":"order.canonical","event_id":"canon_2","occurred_at":"2026-01-05T12:00:00Z","data":${data}} ]}`,
    headers: { 'content-type': 'application/json' },
  });
  assert.equal(batch.status, 202, JSON.stringify(batch.body));
  assert.equal(batch.body.accepted, 1);
  const body = async (id: string) => {
    await until(() => receiver.received.some((r) => r.headers['x-webhook-id'] === id), Boolean, {
      what: `the webhook of ${id}`,
    });
    return receiver.received.find((r) => r.headers['x-webhook-id'] === id)!.body.toString('utf8');
  };
  assert.equal(await body('canon_1'), canonical);
  assert.equal(await body('canon_2'), canonical.replace('canon_1', 'canon_2'));
});
