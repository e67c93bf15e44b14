// A batch of attempt records that the store refuses while it is up (one row it cannot take, e.g. a delivery whose
// endpoint vanished): the dispatcher splits the batch until that row is alone, so every other record lands and only
// the bad row's caller sees the error (docs/rules.md#accepted-on-disk; CHANGELOG, Fixed: a refused batch is split down
// to its bad row).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DeliverySender } from '../src/dispatch/dispatcher.ts';
import type { SendResult } from '../src/http/sender.ts';
import type { Logger } from '../src/logger.ts';
import type { AttemptRecord, Store } from '../src/store/store.ts';
import { within } from '../testing/deadline.ts';
import { tempStore, testEngine } from '../testing/harness.ts';

const EVENTS = 8;

/** Turns of the event loop: the in-process sender does no I/O, so a resolved send reaches its record's submit in a few. */
async function turns(n = 50) {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
}

test('a refused record batch is split: every other row is recorded, only the bad row fails and is reported', async () => {
  const temp = await tempStore();
  const real = temp.store;
  let bad: string | null = null;
  const batches: string[][] = [];
  const refused: string[][] = [];
  let firstEntered!: () => void;
  const entered = new Promise<void>((r) => (firstEntered = r));
  let releaseFirst!: () => void;
  const firstGate = new Promise<void>((r) => (releaseFirst = r));
  // The store, but recordAttempts refuses any batch that holds the bad row (as a foreign key would); the first batch
  // is held so that every other record queues behind it and they commit as one batch.
  const queue = {
    ...real.queue,
    async recordAttempts(records: AttemptRecord[], now: number) {
      const ids = records.map((r) => r.attempt.deliveryId);
      batches.push(ids);
      if (batches.length === 1) {
        firstEntered();
        await firstGate;
      }
      if (bad !== null && ids.includes(bad)) {
        refused.push(ids);
        throw new Error('FOREIGN KEY constraint failed (injected)');
      }
      return real.queue.recordAttempts(records, now);
    },
  };
  const store = new Proxy(real, {
    get(target, prop) {
      if (prop === 'queue') return queue;
      const v = Reflect.get(target, prop, target);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  }) as Store;

  // Sends answered 200 when the test says so, in process: the test orders which record is submitted when.
  const sends: Array<{ deliveryId: string; answer: () => void }> = [];
  const sender: DeliverySender = {
    send: (req) =>
      new Promise((resolve) => {
        const ok: SendResult = {
          outcome: 'success',
          status: 200,
          responseHeaders: {},
          bodyExcerpt: 'ok',
          errorClass: null,
          errorMessage: null,
          startedAt: Date.now(),
          durationMs: 1,
        };
        const id = Object.entries(req.headers).find(([k]) => /^(x-)?webhook-delivery$/i.test(k))?.[1] ?? '';
        sends.push({ deliveryId: id, answer: () => resolve(ok) });
      }),
  };
  const logs: Array<{ level: string; msg: string; fields?: Record<string, unknown> }> = [];
  const logger: Logger = { log: (level, msg, fields) => void logs.push({ level, msg, fields }) };
  const h = await testEngine({ store, sender, logger });
  try {
    const ep = (
      await h.engine.endpoints.create(h.tenantId, { url: 'http://127.0.0.1:9/hook', max_concurrency: EVENTS })
    ).endpoint;
    const accepted = await h.engine.events.acceptMany(
      h.tenantId,
      Array.from({ length: EVENTS }, (_, i) => ({ event_id: `e-${i}`, type: 'order.created', data: { i } })),
    );
    const ids = accepted.map((r) => {
      assert.ok(!(r instanceof Error), String(r));
      return r.deliveries[0].id as string;
    });
    // The bad row is one in the middle of the second batch.
    bad = ids[4];

    const run = h.engine.runDue();
    await within(
      `all ${EVENTS} sends start`,
      15_000,
      (async () => {
        while (sends.length < EVENTS) await turns(1);
      })(),
    );
    assert.ok(
      sends.every((s) => ids.includes(s.deliveryId)),
      'each send names its delivery',
    );
    const first = sends.find((s) => s.deliveryId !== bad)!;
    first.answer();
    await within('the first record batch reaches the store', 15_000, entered);
    for (const s of sends) if (s !== first) s.answer();
    await turns(); // every other record is now queued behind the held first batch
    releaseFirst();
    await within('the dispatcher settles', 30_000, run);

    assert.equal(batches[0].length, 1, `first batch: ${JSON.stringify(batches[0])}`);
    assert.ok(!batches[0].includes(bad), 'the held first batch is a good row');
    assert.equal(batches[1].length, EVENTS - 1, `the rest commit as one batch: ${JSON.stringify(batches)}`);
    assert.ok(refused[0].length === EVENTS - 1, 'the whole batch was refused once');
    assert.ok(refused.length >= 3, `the batch was split down to the bad row: ${JSON.stringify(refused)}`);
    assert.deepEqual(refused.at(-1), [bad], 'the bad row is finally refused alone');
    for (const r of refused) assert.ok(r.includes(bad), 'only batches holding the bad row are refused');

    for (const id of ids) {
      const d = (await real.reporting.getDelivery(h.tenantId, id))!;
      if (id === bad) {
        // Its record never landed: still leased, no attempt; the lease's expiry sends it again.
        assert.deepEqual([d.status, (await real.reporting.listAttempts(id)).length], ['delivering', 0], id);
      } else
        assert.deepEqual(
          [d.status, (await real.reporting.listAttempts(id)).length],
          ['succeeded', 1],
          `${id} (${ep.id}) recorded`,
        );
    }
    const reported = logs.filter((l) => /attempt record was refused/.test(l.msg));
    assert.deepEqual(
      reported.map((l) => l.fields!.delivery_id),
      [bad],
      'the bad row, and only it, is reported',
    );
    const errors = logs.filter((l) => l.level === 'error');
    assert.ok(
      errors.every((l) => l.fields?.delivery_id === bad),
      `no other delivery failed: ${JSON.stringify(errors)}`,
    );
    assert.match(String(reported[0].fields!.error), /FOREIGN KEY constraint failed \(injected\)/);
  } finally {
    await h.engine.stop();
    await temp.cleanup();
  }
});
