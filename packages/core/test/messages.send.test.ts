// Messages of the Svix-compatible API on the engine (docs/rules.md#channels, #raw-payload, #resend): channels choose
// endpoints at fan-out, a raw tenant's attempts send the payload's bytes, and resend sends a succeeded message again
// as a new manual attempt while Hookline's own replay still refuses it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { VirtualClock } from '../src/clock.ts';
import { isHooklineError } from '../src/errors.ts';
import { testEngine } from '../testing/harness.ts';
import { startReceiver } from '../testing/receiver.ts';

const T0 = Date.UTC(2026, 0, 5, 12);

test('channels: an endpoint with channels takes only messages sent to one of them; one without takes all', async () => {
  const t = await testEngine({ clock: new VirtualClock(T0) });
  try {
    const url = 'http://127.0.0.1:9/hook';
    const all = (await t.engine.endpoints.create(t.tenantId, { url })).endpoint.id;
    const eu = (await t.engine.endpoints.create(t.tenantId, { url, channels: ['eu'] })).endpoint.id;
    const euUs = (await t.engine.endpoints.create(t.tenantId, { url, channels: ['eu', 'us'] })).endpoint.id;
    const to = async (channels?: string[]) =>
      (await t.engine.messages.send(t.tenantId, { type: 'x', data: {}, ...(channels ? { channels } : {}) })).deliveries
        .map((d) => d.endpointId)
        .sort();
    assert.deepEqual(await to(), [all]);
    assert.deepEqual(await to(['eu']), [all, eu, euUs].sort());
    assert.deepEqual(await to(['us']), [all, euUs].sort());
    assert.deepEqual(await to(['ap']), [all]);
    // A /v1 event has no channel: the channelled endpoints get nothing.
    const v1 = await t.engine.events.accept(t.tenantId, { type: 'x', data: {} });
    assert.deepEqual(
      v1.deliveries.map((d) => d.endpointId),
      [all],
    );
    // A channel edit applies to the next message.
    await t.engine.endpoints.setLabels(t.tenantId, eu, { uid: null, metadata: {}, channels: null });
    assert.deepEqual(await to(), [all, eu].sort());
  } finally {
    await t.close();
  }
});

test('raw payload: a raw tenant sends the payload bytes; an envelope tenant its envelope; resend re-sends a success', async () => {
  const t = await testEngine({ clock: new VirtualClock(T0) });
  const rx = await startReceiver(() => 200, { clock: t.clock });
  try {
    const raw = await t.engine.tenants.create({ name: 'Svix app', uid: 'svix-app', payload_format: 'raw' });
    const ep = (await t.engine.endpoints.create(raw.id, { url: rx.url, scheme: 'standard' })).endpoint.id;
    const m = await t.engine.messages.send(raw.id, {
      type: 'invoice.paid',
      data: { amount: 5, note: 'ü' },
      tags: ['t'],
    });
    await t.engine.runDue();
    assert.equal(rx.received[0].body.toString('utf8'), '{"amount":5,"note":"ü"}');
    assert.deepEqual([m.channels, m.tags], [null, ['t']]);
    // The same message again (same event id, same payload) is the same message, with its first labels.
    const again = await t.engine.messages.send(raw.id, {
      type: 'invoice.paid',
      data: { amount: 5, note: 'ü' },
      event_id: m.event.eventId,
    });
    assert.deepEqual([again.created, again.event.id, again.tags], [false, m.event.id, ['t']]);

    const envelope = await t.engine.messages.send(t.tenantId, { type: 'a.b', data: { n: 1 } });
    assert.deepEqual(JSON.parse(envelope.event.body.toString()).data, { n: 1 });

    const [first] = m.deliveries;
    assert.equal((await t.engine.deliveries.find(raw.id, first.id))?.status, 'succeeded');
    await assert.rejects(
      t.engine.replays.delivery(raw.id, first.id),
      (e) => isHooklineError(e) && e.code === 'delivery_not_replayable',
    );
    const resent = await t.engine.messages.resend(raw.id, m.event.id, ep);
    assert.notEqual(resent.id, first.id);
    await t.engine.runDue();
    assert.equal(rx.received.length, 2);
    assert.equal(rx.received[1].body.toString('utf8'), '{"amount":5,"note":"ü"}');
    const { attempts } = await t.engine.deliveries.detail(raw.id, resent.id);
    assert.deepEqual(
      attempts.map((a) => [a.trigger, a.outcome]),
      [['replay', 'success']],
    );
    // By the caller's event id too; an unknown one is 404.
    assert.equal((await t.engine.messages.get(raw.id, m.event.eventId)).event.id, m.event.id);
    await assert.rejects(
      t.engine.messages.resend(raw.id, 'evt_nope', ep),
      (e) => isHooklineError(e) && e.code === 'message_not_found',
    );
  } finally {
    await rx.close();
    await t.close();
  }
});
