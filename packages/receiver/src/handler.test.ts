import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createWebhookHandler, type HandlerOptions } from './handler.ts';
import type { LogLine } from './log-line.ts';
import { signWebhook } from './sign.ts';
import { memoryStore } from './stores/memory-store.ts';
import type { EventContract, WebhookEvent } from './webhook-event.ts';

const T = 1_750_000_000;
const secret = { kid: 'k1', secret: 'receiver test secret' };
const schema = {
  type: 'object',
  required: ['event_id', 'type', 'data'],
  properties: { data: { type: 'object', required: ['order_id'], properties: { order_id: { type: 'string' } } } },
} as const;

function envelope(id: string, type = 'order.shipped', data: Record<string, unknown> = { order_id: 'ord_1' }) {
  return JSON.stringify({ event_id: id, type, version: 1, occurred_at: '2025-06-15T12:00:00Z', data });
}

function signed(id: string, body = envelope(id), timestamp = T, scheme: 'hookline' | 'standard' = 'hookline') {
  return {
    headers: signWebhook({ scheme, secrets: secret, id, deliveryId: `dlv_${id}`, timestamp, body }),
    rawBody: Buffer.from(body),
  };
}

function setup(overrides: Partial<HandlerOptions> = {}, handle: EventContract['handle'] = () => {}) {
  const clock = { ms: T * 1000 };
  const logs: LogLine[] = [];
  const runs: WebhookEvent[] = [];
  const store = memoryStore();
  const receive = createWebhookHandler({
    secrets: [secret],
    store,
    now: () => clock.ms,
    logger: (line) => logs.push(line),
    events: {
      'order.shipped': {
        schema,
        handle: async (event) => {
          runs.push(event);
          await handle(event);
        },
      },
    },
    ...overrides,
  });
  return { receive, store, logs, runs, clock };
}

function deferred() {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe('handler pipeline', () => {
  test('a valid event: 202 once recorded, worker runs after the answer, then done', async () => {
    const { receive, store, runs, logs } = setup();
    const res = await receive(signed('evt_1'));
    assert.equal(res.status, 202);
    assert.deepEqual(JSON.parse(res.body), { ok: true, event_id: 'evt_1' });
    assert.equal(runs.length, 0, 'the worker starts after the answer');
    assert.equal((await store.get('evt_1'))?.state, 'processing');
    await receive.drain();
    assert.equal(runs.length, 1);
    assert.equal(runs[0]!.payload.data.order_id, 'ord_1');
    assert.equal(runs[0]!.deliveryId, 'dlv_evt_1');
    assert.equal((await store.get('evt_1'))?.state, 'done');
    assert.equal(logs.filter((l) => l.msg === 'webhook accepted').length, 1);
  });

  test('the same event three times: one side effect, the same 2xx each time', async () => {
    const { receive, runs, logs } = setup();
    const first = await receive(signed('evt_dup'));
    await receive.drain();
    const second = await receive(signed('evt_dup'));
    const third = await receive(signed('evt_dup', envelope('evt_dup'), T + 60));
    await receive.drain();
    assert.equal(runs.length, 1);
    assert.deepEqual([second.status, second.body], [first.status, first.body]);
    assert.deepEqual([third.status, third.body], [first.status, first.body]);
    assert.deepEqual(
      logs.filter((l) => l.code === 'event_already_seen').map((l) => l.reason),
      ['event id already seen', 'event id already seen'],
    );
  });

  test('a duplicate while the first is still processing gets 503 + Retry-After, not a second run', async () => {
    const gate = deferred();
    const started = deferred();
    const { receive, runs } = setup({}, async () => {
      started.resolve();
      await gate.promise;
    });
    assert.equal((await receive(signed('evt_slow'))).status, 202);
    await started.promise;
    const dup = await receive(signed('evt_slow'));
    assert.equal(dup.status, 503);
    assert.equal(dup.headers['retry-after'], '10');
    assert.equal(JSON.parse(dup.body).code, 'event_in_progress');
    gate.resolve();
    await receive.drain();
    assert.equal(runs.length, 1);
    assert.equal((await receive(signed('evt_slow'))).status, 202, 'after done the stored answer comes back');
  });

  test('a failed worker is re-run by the next delivery', async () => {
    let fail = true;
    const { receive, store, runs, logs } = setup({}, () => {
      if (fail) throw new Error('smtp down');
    });
    assert.equal((await receive(signed('evt_retry'))).status, 202);
    await receive.drain();
    assert.equal((await store.get('evt_retry'))?.state, 'failed');
    assert.ok(logs.some((l) => l.code === 'handler_failed' && l.reason === 'smtp down'));
    fail = false;
    assert.equal((await receive(signed('evt_retry'))).status, 202);
    await receive.drain();
    assert.deepEqual(
      runs.map((r) => r.attempt),
      [1, 2],
    );
    assert.equal((await store.get('evt_retry'))?.state, 'done');
  });

  test('a crash between record and done: the stale claim is re-claimed and the work runs again', async () => {
    const { receive, store, runs, clock } = setup({ staleAfterMs: 60_000 });
    // The process that recorded this id died before finishing it.
    await store.claim('evt_crash', clock.ms, 60_000);
    await store.markProcessing('evt_crash', 1, { status: 202, body: '{}' }, clock.ms);
    assert.equal((await receive(signed('evt_crash'))).status, 503, 'not stale yet: maybe still running');
    clock.ms += 60_001;
    assert.equal((await receive(signed('evt_crash', envelope('evt_crash'), T + 61))).status, 202);
    await receive.drain();
    assert.deepEqual(
      runs.map((r) => r.attempt),
      [2],
    );
    assert.equal((await store.get('evt_crash'))?.state, 'done');
  });

  test('signature and timestamp failures: 401, one structured log line each, nothing recorded', async () => {
    const { receive, store, logs, runs } = setup();
    const good = signed('evt_bad');
    const cases: Array<[string, { headers: Record<string, string>; rawBody: Buffer }, string, string]> = [
      [
        'missing_signature',
        { headers: { 'x-webhook-id': 'evt_bad', 'x-webhook-delivery': 'dlv_evt_bad' }, rawBody: good.rawBody },
        'missing signature',
        'missing',
      ],
      [
        'signature_mismatch',
        { headers: good.headers, rawBody: Buffer.from(envelope('evt_bad', 'order.shipped', { order_id: 'ord_2' })) },
        'signature mismatch',
        'mismatch',
      ],
      [
        'malformed_signature',
        { headers: { ...good.headers, 'x-webhook-signature': 'nonsense' }, rawBody: good.rawBody },
        'malformed signature: unexpected "nonsense"',
        'malformed',
      ],
      ['timestamp_too_old', signed('evt_bad', envelope('evt_bad'), T - 301), 'timestamp too old', 'valid'],
      ['timestamp_too_far_ahead', signed('evt_bad', envelope('evt_bad'), T + 301), 'timestamp too far ahead', 'valid'],
    ];
    for (const [code, request, reason, signature] of cases) {
      logs.length = 0;
      const res = await receive(request);
      assert.equal(res.status, 401, code);
      assert.equal(JSON.parse(res.body).code, code);
      assert.equal(logs.length, 1, `${code}: exactly one log line`);
      assert.deepEqual(
        {
          event_id: logs[0]!.event_id,
          delivery_id: logs[0]!.delivery_id,
          code: logs[0]!.code,
          reason: logs[0]!.reason,
          signature: logs[0]!.signature,
          level: logs[0]!.level,
        },
        { event_id: 'evt_bad', delivery_id: 'dlv_evt_bad', code, reason, signature, level: 'warn' },
      );
    }
    assert.equal(await store.get('evt_bad'), undefined);
    await receive.drain();
    assert.equal(runs.length, 0);
  });

  test('corrupted JSON: 400, id released so a corrected redelivery is processed', async () => {
    const { receive, store, runs, logs } = setup();
    const res = await receive(signed('evt_json', '{"event_id":"evt_json", "type": '));
    assert.equal(res.status, 400);
    assert.equal(JSON.parse(res.body).message, 'malformed json');
    assert.equal(logs.at(-1)?.reason, 'malformed json');
    assert.equal(await store.get('evt_json'), undefined);
    assert.equal((await receive(signed('evt_json'))).status, 202);
    await receive.drain();
    assert.equal(runs.length, 1);
  });

  test('a missing required field: 400 naming it; an extra optional field is fine', async () => {
    const { receive, runs, logs } = setup();
    const res = await receive(signed('evt_missing', envelope('evt_missing', 'order.shipped', { note: 'fragile' })));
    assert.equal(res.status, 400);
    assert.deepEqual(JSON.parse(res.body), {
      ok: false,
      code: 'missing_required_field',
      message: 'missing required field data.order_id',
    });
    assert.equal(logs.at(-1)?.reason, 'missing required field data.order_id');
    const extra = await receive(
      signed('evt_extra', envelope('evt_extra', 'order.shipped', { order_id: 'o', gift_wrap: true })),
    );
    assert.equal(extra.status, 202);
    const wrongType = await receive(signed('evt_type', envelope('evt_type', 'order.shipped', { order_id: 7 })));
    assert.equal(wrongType.status, 400);
    assert.equal(JSON.parse(wrongType.body).message, 'invalid field data.order_id: expected string, got number');
    const noType = await receive(signed('evt_notype', JSON.stringify({ event_id: 'evt_notype' })));
    assert.equal(JSON.parse(noType.body).message, 'missing required field type');
    await receive.drain();
    assert.equal(runs.length, 1);
  });

  test('an unknown event type is acknowledged, logged, recorded done, never run', async () => {
    const { receive, store, runs, logs } = setup();
    const res = await receive(signed('evt_unknown', envelope('evt_unknown', 'order.teleported')));
    assert.equal(res.status, 202);
    assert.equal(JSON.parse(res.body).note, 'unknown event type');
    assert.equal(logs.at(-1)?.code, 'unknown_event_type');
    assert.equal((await store.get('evt_unknown'))?.state, 'done');
    assert.equal((await receive(signed('evt_unknown', envelope('evt_unknown', 'order.teleported')))).status, 202);
    await receive.drain();
    assert.equal(runs.length, 0);
  });

  test('storage down: 503 with Retry-After, logged as storage unavailable, no work', async () => {
    const { receive, store, runs, logs } = setup();
    store.setUnavailable(true);
    const res = await receive(signed('evt_down'));
    assert.equal(res.status, 503);
    assert.equal(res.headers['retry-after'], '10');
    assert.equal(JSON.parse(res.body).code, 'storage_unavailable');
    assert.equal(logs.at(-1)?.reason, 'storage unavailable');
    store.setUnavailable(false);
    assert.equal((await receive(signed('evt_down'))).status, 202, 'the sender retry succeeds once storage is back');
    await receive.drain();
    assert.equal(runs.length, 1);
  });

  test('a store that hangs counts as down after storeTimeoutMs', async () => {
    const store = memoryStore();
    const hanging = { ...store, claim: () => new Promise<never>(() => {}) };
    const { receive } = setup({ store: hanging, storeTimeoutMs: 20 });
    assert.equal((await receive(signed('evt_hang'))).status, 503);
  });

  test('an X-Webhook-Id that disagrees with the signed body is refused', async () => {
    const { receive, store } = setup();
    const body = envelope('evt_real');
    const headers = signWebhook({ secrets: secret, id: 'evt_forged', timestamp: T, body });
    const res = await receive({ headers, rawBody: body });
    assert.equal(res.status, 401);
    assert.equal(JSON.parse(res.body).code, 'event_id_mismatch');
    assert.equal(await store.get('evt_forged'), undefined);
  });

  test('standard scheme events flow the same way', async () => {
    const { receive, runs } = setup({ secrets: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' });
    const body = envelope('msg_std');
    const headers = signWebhook({
      scheme: 'standard',
      secrets: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      id: 'msg_std',
      timestamp: T,
      body,
    });
    assert.equal((await receive({ headers, rawBody: body })).status, 202);
    await receive.drain();
    assert.equal(runs[0]?.scheme, 'standard');
  });

  test('ackMode after-handler: 200 after the work, 500 (retryable) when it throws', async () => {
    let fail = true;
    const { receive, store, runs } = setup({ ackMode: 'after-handler' }, () => {
      if (fail) throw new Error('crm timeout');
    });
    const failed = await receive(signed('evt_sync'));
    assert.equal(failed.status, 500);
    assert.equal(JSON.parse(failed.body).code, 'handler_failed');
    assert.equal((await store.get('evt_sync'))?.state, 'failed');
    fail = false;
    const ok = await receive(signed('evt_sync'));
    assert.equal(ok.status, 200);
    assert.equal((await store.get('evt_sync'))?.state, 'done');
    assert.equal(runs.length, 2);
  });

  test('a throwing option becomes an opaque 500, logged with its cause', async () => {
    const { receive, logs } = setup({
      eventType: () => {
        throw new Error('bug in eventType');
      },
    });
    const res = await receive(signed('evt_bug'));
    assert.equal(res.status, 500);
    assert.deepEqual(JSON.parse(res.body), { ok: false, code: 'internal_error', message: 'internal error' });
    assert.equal(logs.at(-1)?.reason, 'bug in eventType');
  });
});
