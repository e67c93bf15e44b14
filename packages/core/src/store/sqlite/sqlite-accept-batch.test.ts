import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { tempStore } from '../../../testing/harness.ts';
import { endpoint, newEvent, secret, tenant } from '../../../testing/store-conformance/fixtures.ts';
import type { NewEvent, Store } from '../store.ts';
import { decodeAcceptBatch, encodeAcceptBatch } from './sqlite-accept-batch.ts';

/** Three events: one unordered to two endpoints, one to the ordering endpoint with a key, one leased; pooled bodies. */
function batch(): NewEvent[] {
  const a = newEvent('ten_A', 1, ['ep_1', 'ep_2'], { body: Buffer.from('{"data":"é ✓ \\u0000"}') });
  const b = newEvent('ten_A', 2, ['ep_k'], { body: Buffer.from(`{"pad":"${'x'.repeat(3000)}"}`) });
  b.event.orderingKey = 'order-7';
  b.deliveries[0].orderingKey = 'order-7';
  const c = newEvent('ten_A', 3, ['ep_1'], { body: Buffer.alloc(0) });
  c.deliveries[0].lease = { workerId: 'wrk_1', until: c.event.createdAt + 30_000 };
  return [a, b, c];
}

async function setup(store: Store): Promise<void> {
  await store.catalog.createTenant(tenant('ten_A'));
  await store.catalog.createEndpoint(endpoint('ep_1', 'ten_A'), secret('sec_1', 'ep_1'));
  await store.catalog.createEndpoint(endpoint('ep_2', 'ten_A'), secret('sec_2', 'ep_2'));
  await store.catalog.createEndpoint(endpoint('ep_k', 'ten_A', { ordering: 'key' }), secret('sec_k', 'ep_k'));
}

test('a batch encodes into one buffer of its own, exactly its size, and decodes to the same events', () => {
  const events = batch();
  const buffer = encodeAcceptBatch(events);
  const json = Buffer.from(buffer).readUInt32LE(0);
  const bodies = events.reduce((n, ne) => n + ne.event.body.byteLength, 0);
  assert.equal(buffer.byteLength, 4 + json + bodies);
  const back = decodeAcceptBatch(buffer);
  assert.deepEqual(back, events);
  for (const ne of back) {
    assert.ok(Buffer.isBuffer(ne.event.body));
    assert.equal(ne.event.body.buffer, buffer, 'a view of the transferred buffer, not a copy');
  }
});

test('the thread store posts each accepted batch as one transferred buffer and answers what the direct store does', async (t) => {
  const direct = await tempStore();
  const threaded = await tempStore({ thread: true });
  t.after(() => Promise.all([direct.cleanup(), threaded.cleanup()]));
  await setup(direct.store);
  await setup(threaded.store);

  const posted: Array<{ method: string; args: unknown[]; transfer: unknown }> = [];
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (this: Worker, message: any, transfer?: any) {
    if (message?.method === 'acceptEvents') posted.push({ method: message.method, args: message.args, transfer });
    return post.call(this, message, transfer);
  };
  let got: unknown;
  try {
    got = await threaded.store.events.acceptEvents(batch());
  } finally {
    Worker.prototype.postMessage = post;
  }
  assert.equal(posted.length, 1);
  const [sent] = posted[0].args as [ArrayBuffer];
  assert.ok(sent instanceof ArrayBuffer, 'one ArrayBuffer, not the events cloned');
  assert.deepEqual(posted[0].transfer, [sent]);
  assert.equal(sent.byteLength, 0, 'transferred (detached here), not copied');

  const expected = await direct.store.events.acceptEvents(batch());
  assert.deepEqual(got, expected);
  // The ordered delivery was numbered by the thread's insert, and the caller's result says so.
  const ordered = (got as Array<{ deliveries: Array<{ orderingSeq: number | null }> }>)[1].deliveries[0];
  assert.equal(ordered.orderingSeq, 1);
  // Accepted again: existing, with the stored event and its deliveries, on both.
  assert.deepEqual(await threaded.store.events.acceptEvents(batch()), await direct.store.events.acceptEvents(batch()));
});
