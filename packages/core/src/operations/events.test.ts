// When accepting events wakes the dispatcher: only for a delivery it could claim.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AcceptResult } from '../store/store.ts';
import type { EngineParts } from './engine-parts.ts';
import { EventOperations } from './events.ts';

function created(statuses: Array<'pending' | 'skipped'>): AcceptResult {
  return {
    kind: 'created',
    event: { id: 'evt_1', eventId: 'e1' } as never,
    deliveries: statuses.map((status, i) => ({ id: `dlv_${i}`, status }) as never),
  };
}

function operations(results: AcceptResult[]) {
  let wakes = 0;
  const parts = {
    ingest: {
      accept: async () => results[0],
      acceptMany: async () => results,
    },
    dispatcher: { wake: () => void wakes++ },
  } as unknown as EngineParts;
  return { ops: new EventOperations(parts), wakes: () => wakes };
}

test('an accepted event wakes the dispatcher only when one of its deliveries is pending', async () => {
  for (const [statuses, expected] of [
    [['pending'], 1],
    [['skipped', 'pending'], 1],
    [['skipped'], 0],
    [[], 0],
  ] as const) {
    const o = operations([created([...statuses])]);
    await o.ops.accept('ten_1', { type: 't', data: {} });
    assert.equal(o.wakes(), expected, `accept with ${JSON.stringify(statuses)}`);
    const m = operations([created([...statuses]), { kind: 'conflict', eventId: 'e2' }]);
    await m.ops.acceptMany('ten_1', [
      { type: 't', data: {} },
      { type: 't', data: {} },
    ]);
    assert.equal(m.wakes(), expected, `acceptMany with ${JSON.stringify(statuses)}`);
  }
});
