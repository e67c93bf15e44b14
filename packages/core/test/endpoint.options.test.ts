// Payload filters at fan-out and custom headers on the wire, against a loopback receiver (docs/filters.md,
// docs/rules.md#custom-headers).

import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { test } from 'node:test';
import type { HooklineError } from '../src/errors.ts';
import { testEngine } from '../testing/harness.ts';
import { startReceiver } from '../testing/receiver.ts';
import { settle } from '../testing/settle.ts';

test('a payload filter decides at fan-out: only matching events get a delivery, paused or not; event-type filters still apply', async () => {
  const t = await testEngine();
  const rx = await startReceiver(() => 200, { clock: t.clock });
  try {
    const payload_filter = {
      all: [
        { path: 'data.status', in: ['paid', 'settled'] },
        {
          any: [
            { path: 'data.amount', gte: 1000 },
            { path: 'data.vip', equals: true },
          ],
        },
      ],
    };
    const { endpoint: filtered } = await t.engine.endpoints.create(t.tenantId, {
      url: rx.url,
      event_types: ['payment.*'],
      payload_filter,
    });
    const { endpoint: all } = await t.engine.endpoints.create(t.tenantId, {
      url: `${rx.url}?all`,
      event_types: ['payment.*'],
    });
    assert.deepEqual(filtered.payloadFilter, payload_filter);
    const events = [
      { event_id: 'big', type: 'payment.status_changed', data: { status: 'paid', amount: 5000 } },
      { event_id: 'vip', type: 'payment.status_changed', data: { status: 'settled', amount: 5, vip: true } },
      { event_id: 'small', type: 'payment.status_changed', data: { status: 'paid', amount: 5 } },
      { event_id: 'failed', type: 'payment.status_changed', data: { status: 'failed', amount: 5000 } },
      { event_id: 'string-amount', type: 'payment.status_changed', data: { status: 'paid', amount: '5000' } },
      { event_id: 'other-type', type: 'refund.completed', data: { status: 'paid', amount: 5000 } },
    ];
    for (const e of events) await t.engine.events.accept(t.tenantId, e);
    await settle(t.engine, t.clock);
    const ids = (endpointId: string) =>
      rx.received
        .filter((r) => (r.url.includes('?all') ? all.id : filtered.id) === endpointId)
        .map((r) => JSON.parse(r.body.toString()).event_id)
        .sort();
    assert.deepEqual(ids(filtered.id), ['big', 'vip']);
    assert.deepEqual(ids(all.id), ['big', 'failed', 'small', 'string-amount', 'vip']);
    const recorded = await t.store.reporting.listDeliveries(
      { tenantId: t.tenantId, endpointId: filtered.id },
      null,
      100,
    );
    assert.equal(recorded.items.length, 2, 'non-matching events leave no delivery at all');

    // Paused: a matching event is skipped (replayable), a non-matching one leaves nothing.
    await t.engine.endpoints.update(t.tenantId, filtered.id, { status: 'paused' });
    await t.engine.events.accept(t.tenantId, {
      event_id: 'p-match',
      type: 'payment.status_changed',
      data: { status: 'paid', amount: 9999 },
    });
    await t.engine.events.accept(t.tenantId, {
      event_id: 'p-miss',
      type: 'payment.status_changed',
      data: { status: 'paid', amount: 1 },
    });
    const after = await t.store.reporting.listDeliveries({ tenantId: t.tenantId, endpointId: filtered.id }, null, 100);
    assert.deepEqual(after.items.map((d) => d.status).sort(), ['skipped', 'succeeded', 'succeeded']);

    // Clearing the filter (null) lets every event of its types through again.
    const cleared = await t.engine.endpoints.update(t.tenantId, filtered.id, {
      payload_filter: null,
      status: 'active',
    });
    assert.equal(cleared.payloadFilter, null);
    await t.engine.events.accept(t.tenantId, { event_id: 'after-clear', type: 'payment.status_changed', data: {} });
    await settle(t.engine, t.clock);
    assert.ok(ids(filtered.id).includes('after-clear'));
  } finally {
    await rx.close();
    await t.close();
  }
});

test('a bad filter or bad headers are refused on create and on edit, and nothing is saved', async () => {
  const t = await testEngine();
  try {
    const code = (err: unknown) => (err as HooklineError).code;
    await assert.rejects(
      t.engine.endpoints.create(t.tenantId, {
        url: 'http://127.0.0.1:9/h',
        payload_filter: { any: [{ path: 'data.x', gt: 'one' }] },
      }),
      (e) => code(e) === 'invalid_filter' && /\/any\/0\/gt/.test((e as Error).message),
    );
    await assert.rejects(
      t.engine.endpoints.create(t.tenantId, {
        url: 'http://127.0.0.1:9/h',
        headers: { 'X-Webhook-Signature': 'forged' },
      }),
      (e) => code(e) === 'invalid_header',
    );
    assert.equal((await t.engine.endpoints.list(t.tenantId, null, 10)).items.length, 0);
    const { endpoint } = await t.engine.endpoints.create(t.tenantId, {
      url: 'http://127.0.0.1:9/h',
      headers: { 'X-Tenant': 'acme' },
      payload_filter: { path: 'type', equals: 'a' },
    });
    await assert.rejects(
      t.engine.endpoints.update(t.tenantId, endpoint.id, { headers: { 'X-A': 'a\r\nb' } }),
      (e) => code(e) === 'invalid_header',
    );
    await assert.rejects(
      t.engine.endpoints.update(t.tenantId, endpoint.id, { payload_filter: { path: 'nope', equals: 1 } }),
      (e) => code(e) === 'invalid_filter',
    );
    const kept = await t.engine.endpoints.get(t.tenantId, endpoint.id);
    assert.deepEqual([kept.customHeaders, kept.payloadFilter], [{ 'X-Tenant': 'acme' }, { path: 'type', equals: 'a' }]);
  } finally {
    await t.close();
  }
});

test('custom headers go out on every attempt (retries, replay, test delivery) and the signature still covers exactly what it covers', async () => {
  const t = await testEngine();
  let answer = 500;
  const rx = await startReceiver(() => answer, { clock: t.clock });
  try {
    const headers = { 'X-Tenant-Ref': 'acme-42', Authorization: 'Bearer s3cret-token' };
    const { endpoint, secret } = await t.engine.endpoints.create(t.tenantId, { url: rx.url, headers, policy: 'brief' });
    const accepted = await t.engine.events.accept(t.tenantId, { event_id: 'e1', type: 'a.b', data: { n: 1 } });
    await settle(t.engine, t.clock); // brief: 4 attempts, all 500 → failed
    assert.equal(rx.received.length, 4);
    answer = 200;
    await t.engine.replays.delivery(t.tenantId, accepted.deliveries[0].id);
    await settle(t.engine, t.clock);
    await t.engine.endpoints.test(t.tenantId, endpoint.id);
    assert.equal(rx.received.length, 6);
    for (const r of rx.received) {
      assert.equal(r.headers['x-tenant-ref'], 'acme-42');
      assert.equal(r.headers.authorization, 'Bearer s3cret-token');
      assert.equal(r.headers['content-type'], 'application/json');
      assert.match(String(r.headers['user-agent']), /Hookline/);
      // The signature is over t + "." + body, as before: custom headers are not part of it and cannot replace it.
      const sig = String(r.headers['x-webhook-signature']);
      const ts = /t=(\d+)/.exec(sig)![1];
      assert.equal(ts, r.headers['x-webhook-timestamp']);
      const v1 = /v1=([0-9a-f]+)/.exec(sig)![1];
      assert.equal(v1, createHmac('sha256', secret!).update(`${ts}.`).update(r.body).digest('hex'));
    }
    // Attempt records show the header names; values that look like credentials are redacted.
    const attempts = await t.store.reporting.listAttempts(accepted.deliveries[0].id);
    assert.equal(attempts.length, 5);
    for (const a of attempts) {
      assert.equal(a.requestHeaders['X-Tenant-Ref'], 'acme-42');
      assert.equal(a.requestHeaders.Authorization, '[redacted]');
      assert.ok(a.requestHeaders['X-Webhook-Signature']);
    }
    // Editing replaces the whole set; {} clears it.
    await t.engine.endpoints.update(t.tenantId, endpoint.id, { headers: {} });
    await t.engine.endpoints.test(t.tenantId, endpoint.id);
    assert.equal(rx.received.at(-1)!.headers['x-tenant-ref'], undefined);
  } finally {
    await rx.close();
    await t.close();
  }
});
