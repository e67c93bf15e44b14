// POST …/endpoints/:endpoint/doctor over real HTTP against three receivers on 127.0.0.1: toolkit, naive, re-serialising.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  naiveReceiver,
  ORDER_SHIPPED_DATA_SCHEMA,
  ORDER_SHIPPED_EXAMPLE,
  reserialisingReceiver,
  type TestReceiver,
  toolkitReceiver,
} from './fixtures/doctor-receivers.ts';
import { startTestServer, type TestServer } from './server-harness.ts';

let t: TestServer;
let ten: string;
const receivers: TestReceiver[] = [];

before(async () => {
  t = await startTestServer();
  ten = await t.tenant();
  const put = await t.api('PUT', '/v1/event-types/order.shipped', {
    body: {
      description: 'a label was bought',
      versions: {
        '1': { schema: JSON.parse(JSON.stringify(ORDER_SHIPPED_DATA_SCHEMA)), example: ORDER_SHIPPED_EXAMPLE },
      },
    },
  });
  assert.equal(put.status, 200);
});
after(async () => {
  for (const r of receivers) await r.close();
  await t.close();
});

/** An endpoint in rotation overlap (two live secrets) whose receiver is built from them. */
async function endpointWith<R extends TestReceiver>(
  make: (secrets: Array<{ kid: string; secret: string }>) => Promise<R>,
  extra: Record<string, unknown> = {},
) {
  const created = await t.api('POST', `/v1/tenants/${ten}/endpoints`, {
    body: { url: 'http://127.0.0.1:9/placeholder', event_types: ['order.*'], ...extra },
  });
  assert.equal(created.status, 201);
  const id = created.body.id as string;
  const rotated = await t.api('POST', `/v1/tenants/${ten}/endpoints/${id}/secret/rotate`, {
    body: { overlap_seconds: 3600 },
  });
  assert.equal(rotated.status, 200);
  // An ed25519 endpoint's receiver holds the public keys (docs/rules.md#signing-ed25519).
  const secrets = (
    rotated.body.secrets as Array<{ kid: string; secret: string | null; public_key: string | null }>
  ).map((s) => ({ kid: s.kid, secret: (s.public_key ?? s.secret)! }));
  assert.equal(secrets.length, 2);
  const receiver = await make(secrets);
  receivers.push(receiver);
  assert.equal(
    (await t.api('PATCH', `/v1/tenants/${ten}/endpoints/${id}`, { body: { url: receiver.url } })).status,
    200,
  );
  return { id, receiver, secrets };
}

const grades = (report: any) => Object.fromEntries(report.cases.map((c: any) => [c.id, c.grade]));

test('a receiver built with @hookline/receiver passes every case, with the registered contract and the rotation overlap', async () => {
  const { id, receiver } = await endpointWith((secrets) => toolkitReceiver(secrets));
  const r = await t.api('POST', `/v1/tenants/${ten}/endpoints/${id}/doctor`);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  const report = r.body;
  assert.equal(report.event_type, 'order.shipped');
  assert.deepEqual(
    report.score,
    { passed: 12, applicable: 12, warned: 0, failed: 0, skipped: 0 },
    JSON.stringify(report.cases, null, 1),
  );
  assert.deepEqual(report.fixes, []);
  assert.equal(report.stopped_by, null);
  assert.equal(report.requests_sent, 15);
  assert.equal(receiver.received.length, 15);
  for (const req of receiver.received) {
    assert.equal(req.headers['x-webhook-doctor'], '1');
    assert.match(String(req.headers['x-webhook-id']), /^doctor_evt_/);
  }
  // Every check was answered as a real event would be, and none ran as work (docs/rules.md#tool-doctor).
  assert.deepEqual(receiver.handled, []);
});

test('an ed25519 endpoint: the toolkit receiver holding only whpk_ keys passes every case; the bad signature is a v1a by another key', async () => {
  const { id, receiver, secrets } = await endpointWith((keys) => toolkitReceiver(keys), { signing: 'ed25519' });
  assert.ok(secrets.every((s) => s.secret.startsWith('whpk_')));
  const r = await t.api('POST', `/v1/tenants/${ten}/endpoints/${id}/doctor`);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.deepEqual(
    r.body.score,
    { passed: 12, applicable: 12, warned: 0, failed: 0, skipped: 0 },
    JSON.stringify(r.body.cases, null, 1),
  );
  assert.equal(receiver.received.length, 15);
  assert.deepEqual(receiver.handled, []);
  for (const req of receiver.received) {
    assert.equal(req.headers['x-webhook-doctor'], '1');
    assert.match(String(req.headers['webhook-id']), /^doctor_evt_/);
    assert.ok(
      String(req.headers['webhook-signature'])
        .split(' ')
        .every((item) => item.startsWith('v1a,')),
      'only v1a entries',
    );
  }
});

test('the naive receiver (verifies nothing, 500 on bad JSON) fails the signature, timestamp and bad-JSON cases', async () => {
  const { id } = await endpointWith(() => naiveReceiver());
  const r = await t.api('POST', `/v1/tenants/${ten}/endpoints/${id}/doctor`, { body: { type: 'order.shipped' } });
  assert.equal(r.status, 200);
  assert.deepEqual(grades(r.body), {
    valid_event: 'pass',
    duplicates: 'pass',
    bad_signature: 'fail',
    tampered_body: 'fail',
    stale_timestamp: 'fail',
    future_timestamp: 'fail',
    corrupted_json: 'fail',
    missing_required_field: 'warn',
    unknown_event_type: 'pass',
    extra_optional_field: 'pass',
    previous_secret: 'pass',
    out_of_order: 'pass',
  });
  assert.deepEqual(r.body.score, { passed: 6, applicable: 12, warned: 1, failed: 5, skipped: 0 });
  assert.deepEqual(
    r.body.fixes.map((f: any) => f.number),
    ['3a', '3b', '4a', '4b', '5', '6'],
  );
  assert.match(r.body.fixes[4].advice, /5xx/);
});

test('the receiver that re-serialises JSON before verifying fails every case a valid signature must pass', async () => {
  const { id } = await endpointWith((secrets) => reserialisingReceiver(secrets));
  const r = await t.api('POST', `/v1/tenants/${ten}/endpoints/${id}/doctor`, { body: null });
  assert.equal(r.status, 200);
  const g = grades(r.body);
  for (const c of [
    'valid_event',
    'duplicates',
    'unknown_event_type',
    'extra_optional_field',
    'previous_secret',
    'out_of_order',
  ])
    assert.equal(g[c], 'fail', c);
  for (const c of ['bad_signature', 'tampered_body', 'stale_timestamp', 'future_timestamp', 'corrupted_json'])
    assert.equal(g[c], 'pass', c);
  assert.match(r.body.cases[0].explanation, /HTTP 401/);
  assert.match(r.body.fixes.find((f: any) => f.number === '1').advice, /Acknowledge fast/);
});

test('refused for a paused endpoint (nothing sent), an unknown endpoint, an unregistered type, a stray field', async () => {
  const { id, receiver } = await endpointWith(() => naiveReceiver(), { status: 'paused' });
  const paused = await t.api('POST', `/v1/tenants/${ten}/endpoints/${id}/doctor`);
  assert.equal(paused.status, 409);
  assert.equal(paused.body.error.code, 'endpoint_paused');
  assert.equal(receiver.received.length, 0);
  assert.equal(
    (await t.api('POST', `/v1/tenants/${ten}/endpoints/ep_nope/doctor`)).body.error.code,
    'endpoint_not_found',
  );
  const resumed = await t.api('PATCH', `/v1/tenants/${ten}/endpoints/${id}`, { body: { status: 'active' } });
  assert.equal(resumed.status, 200);
  const unknown = await t.api('POST', `/v1/tenants/${ten}/endpoints/${id}/doctor`, { body: { type: 'order.never' } });
  assert.equal(unknown.status, 404);
  assert.equal(unknown.body.error.code, 'event_type_not_found');
  const badVersion = await t.api('POST', `/v1/tenants/${ten}/endpoints/${id}/doctor`, {
    body: { type: 'order.shipped', version: '9' },
  });
  assert.equal(badVersion.status, 400);
  assert.equal(badVersion.body.error.code, 'unknown_event_type');
  const stray = await t.api('POST', `/v1/tenants/${ten}/endpoints/${id}/doctor`, {
    body: { urls: ['http://elsewhere'] },
  });
  assert.equal(stray.status, 400);
  assert.equal(stray.body.error.code, 'invalid_request');
  assert.equal(receiver.received.length, 0);
});

test('an endpoint subscribed to no registered type: case 6 is skipped with the reason, not counted', async () => {
  const { id } = await endpointWith(() => naiveReceiver(), { event_types: ['invoice.sent'] });
  const r = await t.api('POST', `/v1/tenants/${ten}/endpoints/${id}/doctor`);
  assert.equal(r.status, 200);
  const six = r.body.cases.find((c: any) => c.id === 'missing_required_field');
  assert.equal(six.grade, 'skip');
  assert.equal(six.applicable, false);
  assert.match(six.explanation, /no schema/);
  assert.equal(r.body.event_type, 'doctor.check');
  assert.equal(r.body.score.applicable, 11);
});
