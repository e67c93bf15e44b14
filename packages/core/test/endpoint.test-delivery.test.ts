// A test delivery (POST …/endpoints/:id/test) always reaches a terminal state: recorded by its sender, ended failed
// when it could not be sent, or finished by the dispatcher when its sender died mid-send.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DeliverySender } from '../src/dispatch/dispatcher.ts';
import { testEngine } from '../testing/harness.ts';
import { settle } from '../testing/settle.ts';

type Mode = 'ok' | 'throw' | 'hang';

function switchableSender() {
  const state = { mode: 'ok' as Mode, sent: 0 };
  const sender: DeliverySender = {
    async send() {
      state.sent++;
      if (state.mode === 'throw') throw new Error('sender fault');
      if (state.mode === 'hang') return new Promise(() => {}); // the process "dies" here: nothing after it runs
      return {
        outcome: 'success',
        status: 200,
        responseHeaders: {},
        bodyExcerpt: 'ok',
        errorClass: null,
        errorMessage: null,
        startedAt: 0,
        durationMs: 1,
        simulatedDurationMs: 1,
      };
    },
  };
  return { sender, state };
}

test('a test delivery ends: succeeded when answered, failed when it cannot be sent, finished by the dispatcher when its sender died', async () => {
  const { sender, state } = switchableSender();
  const t = await testEngine({ sender, maintenance: { enabled: false } });
  try {
    const { endpoint } = await t.engine.endpoints.create(t.tenantId, {
      url: 'http://127.0.0.1:9/hook',
      timeout_ms: 1000,
    });
    const tests = async () =>
      (await t.store.reporting.listDeliveries({ tenantId: t.tenantId, endpointId: endpoint.id }, null, 100)).items;

    const ok = await t.engine.endpoints.test(t.tenantId, endpoint.id);
    assert.equal(ok.outcome, 'success');
    assert.equal((await t.store.reporting.getDelivery(t.tenantId, ok.deliveryId))?.status, 'succeeded');

    state.mode = 'throw';
    await assert.rejects(t.engine.endpoints.test(t.tenantId, endpoint.id), /sender fault/);
    const thrown = (await tests()).find((d) => d.id !== ok.deliveryId)!;
    assert.deepEqual([thrown.status, thrown.terminalReason], ['failed', 'test delivery failed: sender fault']);

    state.mode = 'hang';
    void t.engine.endpoints.test(t.tenantId, endpoint.id);
    let stranded: Awaited<ReturnType<typeof tests>>[number] | undefined;
    for (let i = 0; i < 1000 && !stranded; i++) {
      await new Promise((r) => setImmediate(r));
      stranded = (await tests()).find((d) => d.status === 'delivering');
    }
    assert.ok(stranded, 'the hanging test delivery is leased');
    assert.ok(stranded.leaseUntil! > t.clock.now(), 'leased while its sender works on it');

    // Its sender is gone for good: once the lease lapses the dispatcher's sweep hands it back and it is sent.
    state.mode = 'ok';
    t.clock.set(stranded.leaseUntil! + 1);
    assert.equal(await t.store.queue.releaseExpiredLeases(t.clock.now()), 1);
    await settle(t.engine, t.clock, { maxRounds: 100 });
    const finished = await t.store.reporting.getDelivery(t.tenantId, stranded.id);
    assert.equal(finished?.status, 'succeeded');
    assert.deepEqual((await tests()).map((d) => d.status).sort(), ['failed', 'succeeded', 'succeeded']);
  } finally {
    await t.close();
  }
});
