// `hookline doctor` checks (docs/rules.md#tool-doctor) through the handler and the inbox: answered as real, never run.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isDoctorRequest } from '../src/doctor-request.ts';
import { createWebhookHandler, type HandlerOptions, type WebhookRequest } from '../src/handler.ts';
import { createInbox } from '../src/inbox/inbox.ts';
import { memoryInbox } from '../src/inbox/memory-inbox.ts';
import type { LogLine } from '../src/log-line.ts';
import { signWebhook } from '../src/sign.ts';
import { memoryStore } from '../src/stores/memory-store.ts';
import type { EventContract, WebhookEvent } from '../src/webhook-event.ts';

const T = 1_750_000_000;
const secret = { kid: 'k1', secret: 'doctor test secret' };
const schema = {
  type: 'object',
  required: ['data'],
  properties: { data: { type: 'object', required: ['order_id'] } },
} as const;

/** A request shaped as the doctor sends it: `doctor_` ids and the header, unless `mark` says otherwise. */
function request(
  id: string,
  {
    mark = true,
    data = { order_id: 'ord_1' } as unknown,
    type = 'order.shipped',
    scheme = 'hookline',
    timestamp = T,
  } = {},
): WebhookRequest {
  const body = JSON.stringify({ event_id: id, type, version: '1', occurred_at: '2025-06-15T12:00:00Z', data });
  const headers: Record<string, string> = signWebhook({
    scheme: scheme as 'hookline' | 'standard',
    secrets: secret,
    id,
    deliveryId: `dlv_${id}`,
    timestamp,
    body,
  });
  if (mark) headers['X-Webhook-Doctor'] = '1';
  return { headers, rawBody: Buffer.from(body) };
}

function contracts(runs: WebhookEvent[]): Record<string, EventContract> {
  return { 'order.shipped': { schema, handle: (event) => void runs.push(event) } };
}

function withStore(overrides: Partial<HandlerOptions> = {}) {
  const runs: WebhookEvent[] = [];
  const logs: LogLine[] = [];
  const store = memoryStore();
  const receive = createWebhookHandler({
    secrets: [secret],
    store,
    events: contracts(runs),
    now: () => T * 1000,
    logger: (line) => logs.push(line),
    ...overrides,
  });
  return { receive, store, runs, logs };
}

function withInbox(overrides: Partial<HandlerOptions> = {}) {
  const runs: WebhookEvent[] = [];
  const store = memoryInbox();
  const inbox = createInbox({ store, events: contracts(runs), now: () => T * 1000, logger: () => {} });
  const receive = createWebhookHandler({
    secrets: [secret],
    inbox,
    now: () => T * 1000,
    logger: () => {},
    ...overrides,
  });
  return { receive, inbox, runs };
}

test('isDoctorRequest: the header (any case, value 1) or a doctor_ event id', () => {
  assert.equal(isDoctorRequest({ 'X-Webhook-Doctor': '1' }, 'evt_1'), true);
  assert.equal(isDoctorRequest({ 'x-webhook-doctor': '1' }, undefined), true);
  assert.equal(isDoctorRequest(new Headers({ 'x-webhook-doctor': '1' }), 'evt_1'), true);
  assert.equal(isDoctorRequest({}, 'doctor_evt_1'), true);
  assert.equal(isDoctorRequest({ 'x-webhook-doctor': '0' }, 'evt_1'), false);
  assert.equal(isDoctorRequest({}, 'evt_doctor_1'), false);
  assert.equal(isDoctorRequest({}, undefined), false);
});

describe('dedup store path', () => {
  test('a doctor event: verified, answered 202 as a real one, never run, no id recorded', async () => {
    const { receive, store, runs, logs } = withStore();
    const real = await receive(request('evt_real', { mark: false }));
    for (const [id, mark] of [
      ['doctor_evt_1', true],
      ['evt_marked_only', true],
      ['doctor_evt_prefix_only', false],
    ] as const) {
      const res = await receive(request(id, { mark }));
      assert.equal(res.status, real.status, id);
      assert.deepEqual(JSON.parse(res.body), { ok: true, event_id: id });
      assert.equal(await store.get(id), undefined, `${id} left a record`);
    }
    await receive.drain();
    assert.deepEqual(
      runs.map((e) => e.id),
      ['evt_real'],
    );
    assert.equal(logs.filter((l) => l.msg === 'webhook doctor check answered, not run').length, 3);
  });

  test('three copies: three 2xx, nothing run; then the real delivery of that id still runs', async () => {
    const { receive, runs } = withStore();
    for (let i = 0; i < 3; i++) assert.equal((await receive(request('evt_shared'))).status, 202);
    await receive.drain();
    assert.equal(runs.length, 0);
    // A forged doctor header on a captured request cannot shadow the sender's own delivery.
    assert.equal((await receive(request('evt_shared', { mark: false }))).status, 202);
    await receive.drain();
    assert.deepEqual(
      runs.map((e) => e.id),
      ['evt_shared'],
    );
  });

  test('refusals are the real ones: bad signature 401, bad JSON 400, missing field 400, unknown type 202', async () => {
    const { receive, runs } = withStore();
    const bad = request('doctor_evt_bad');
    const forged = await receive({ ...bad, rawBody: Buffer.from(String(bad.rawBody).replace('ord_1', 'ord_2')) });
    assert.deepEqual([forged.status, JSON.parse(forged.body).code], [401, 'signature_mismatch']);
    const stale = await receive(request('doctor_evt_stale', { timestamp: T - 600 }));
    assert.deepEqual([stale.status, JSON.parse(stale.body).code], [401, 'timestamp_too_old']);
    const body = '{"event_id":"doctor_evt_json", "type": "order.shipped"';
    const broken = await receive({
      headers: {
        ...signWebhook({ secrets: secret, id: 'doctor_evt_json', timestamp: T, body }),
        'X-Webhook-Doctor': '1',
      },
      rawBody: body,
    });
    assert.deepEqual([broken.status, JSON.parse(broken.body).code], [400, 'malformed_json']);
    const missing = await receive(request('doctor_evt_missing', { data: {} }));
    assert.deepEqual([missing.status, JSON.parse(missing.body).code], [400, 'missing_required_field']);
    const unknown = await receive(request('doctor_evt_unknown', { type: 'doctor.unknown_event_type' }));
    assert.equal(unknown.status, 202);
    await receive.drain();
    assert.equal(runs.length, 0);
  });

  test("ackMode after-handler answers 200 as it would for real work; the standard scheme's ids are recognised too", async () => {
    const { receive, runs } = withStore({ ackMode: 'after-handler' });
    assert.equal((await receive(request('doctor_evt_1'))).status, 200);
    assert.equal((await receive(request('doctor_msg_1', { scheme: 'standard', mark: false }))).status, 200);
    assert.equal(runs.length, 0);
  });

  test("doctorEvents: 'handle' opts in: run as real work, and the handler can tell them apart", async () => {
    const { receive, runs } = withStore({ doctorEvents: 'handle' });
    assert.equal((await receive(request('doctor_evt_1'))).status, 202);
    await receive.drain();
    assert.deepEqual(
      runs.map((e) => [e.id, isDoctorRequest(e.headers, e.id)]),
      [['doctor_evt_1', true]],
    );
    assert.throws(() => withStore({ doctorEvents: 'run' as never }), /doctorEvents must be 'acknowledge' or 'handle'/);
  });
});

describe('inbox path', () => {
  test('a doctor event is answered 202 as a real one and never stored, so the worker never runs it', async () => {
    const { receive, inbox, runs } = withInbox();
    const real = await receive(request('evt_real', { mark: false }));
    for (const id of ['doctor_evt_1', 'doctor_evt_1', 'evt_marked']) {
      const res = await receive(request(id));
      assert.deepEqual([res.status, res.body], [real.status, JSON.stringify({ ok: true, event_id: id })]);
      assert.equal(await inbox.get(id), undefined, `${id} was stored`);
    }
    const missing = await receive(request('doctor_evt_missing', { data: {} }));
    assert.equal(missing.status, 400);
    assert.equal(await inbox.runOnce(), 1);
    assert.deepEqual(
      runs.map((e) => e.id),
      ['evt_real'],
    );
  });

  test("doctorEvents: 'handle' stores it and the worker sees the doctor's mark on the stored copy", async () => {
    const { receive, inbox, runs } = withInbox({ doctorEvents: 'handle' });
    assert.equal((await receive(request('evt_marked'))).status, 202);
    assert.equal((await inbox.get('evt_marked'))?.state, 'pending');
    assert.equal(await inbox.runOnce(), 1);
    assert.equal(runs[0]?.headers['x-webhook-doctor'], '1');
    assert.equal(isDoctorRequest(runs[0]!.headers, runs[0]!.id), true);
  });
});
