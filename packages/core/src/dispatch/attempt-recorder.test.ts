import assert from 'node:assert/strict';
import { test } from 'node:test';
import { VirtualClock } from '../clock.ts';
import type { Logger } from '../logger.ts';
import type { AttemptRecord, HealthTransition } from '../store/store.ts';
import { AttemptRecorder, COMMIT_TRIES, RefusedBatch } from './attempt-recorder.ts';

/** Only what the recorder reads of a record: whose delivery and endpoint it is. */
const rec = (deliveryId: string, endpointId = 'ep_1') => ({ attempt: { deliveryId, endpointId } }) as AttemptRecord;
const ids = (records: AttemptRecord[]) => records.map((r) => r.attempt.deliveryId);

/**
 * A store part that refuses any batch holding one of `bad` (as a foreign key would) while it answers pings, or every
 * batch while `down`. It reports the transitions `transitions` for every batch it takes.
 */
function fakeStore(opts: { bad?: string[]; down?: number; pingThrows?: boolean; transitions?: HealthTransition[] }) {
  const calls: string[][] = [];
  let down = opts.down ?? 0;
  return {
    calls,
    store: {
      queue: {
        async recordAttempts(records: AttemptRecord[], _now: number): Promise<HealthTransition[]> {
          calls.push(ids(records));
          if (down > 0) {
            down--;
            throw new Error('connection terminated');
          }
          const refused = ids(records).find((id) => opts.bad?.includes(id));
          if (refused) throw new Error(`FOREIGN KEY constraint failed (${refused})`);
          return opts.transitions ?? [];
        },
      },
      async ping(): Promise<boolean> {
        if (opts.pingThrows) throw new Error('no route');
        return down === 0;
      },
    },
  };
}

function recorder(store: ReturnType<typeof fakeStore>['store']) {
  const waits: number[] = [];
  const logs: Array<[string, string, Record<string, unknown> | undefined]> = [];
  const logger: Logger = { log: (level, msg, fields) => void logs.push([level, msg, fields]) };
  const r = new AttemptRecorder({
    store,
    clock: new VirtualClock(),
    logger,
    backoff: async (ms) => void waits.push(ms),
  });
  return { r, waits, logs };
}

test('a refused batch is halved until the bad row is alone: only its slot holds the error', async () => {
  const f = fakeStore({ bad: ['c'] });
  const { r, waits, logs } = recorder(f.store);
  const out = await r.commit(['a', 'b', 'c', 'd', 'e'].map((id) => rec(id)));
  assert.deepEqual(f.calls, [
    ['a', 'b', 'c', 'd', 'e'],
    ['a', 'b', 'c'],
    ['a', 'b'],
    ['c'],
    ['c'], // a lone record gets one more try, in case the refusal was a blip
    ['d', 'e'],
  ]);
  assert.deepEqual(waits, [200]);
  assert.deepEqual(out.slice(0, 2), [[], []]);
  assert.deepEqual(out.slice(3), [[], []]);
  assert.ok(out[2] instanceof Error && !(out[2] instanceof RefusedBatch));
  assert.equal((out[2] as Error).message, 'FOREIGN KEY constraint failed (c)');
  assert.deepEqual(
    logs.map(([level, msg, fields]) => [level, msg, fields?.delivery_id ?? fields?.attempt]),
    [
      ['warn', 'recording attempts failed, retrying', 1],
      ['error', 'an attempt record was refused; its delivery is sent again when its lease expires', 'c'],
    ],
  );
});

test('two bad rows in one batch each fail alone', async () => {
  const f = fakeStore({ bad: ['a', 'd'] });
  const { r } = recorder(f.store);
  const out = await r.commit(['a', 'b', 'c', 'd'].map((id) => rec(id)));
  assert.deepEqual(
    out.map((o) => (o instanceof Error ? 'error' : o)),
    ['error', [], [], 'error'],
  );
});

test('a store that is down gets COMMIT_TRIES tries with doubling backoff, then every caller sees its error', async () => {
  const f = fakeStore({ down: 100 });
  const { r, waits } = recorder(f.store);
  const out = await r.commit([rec('a'), rec('b')]);
  assert.equal(COMMIT_TRIES, 6);
  assert.deepEqual(
    f.calls,
    Array.from({ length: 6 }, () => ['a', 'b']),
  );
  assert.deepEqual(waits, [200, 400, 800, 1600, 3200]);
  assert.ok(out[0] instanceof Error && out[0].message === 'connection terminated');
  assert.equal(out[1], out[0]);
});

test('a ping that throws counts as down: the batch is retried whole, not split', async () => {
  const f = fakeStore({ down: 2, pingThrows: true });
  const { r, waits } = recorder(f.store);
  const out = await r.commit([rec('a'), rec('b')]);
  assert.deepEqual(f.calls, [
    ['a', 'b'],
    ['a', 'b'],
    ['a', 'b'],
  ]);
  assert.deepEqual(waits, [200, 400]);
  assert.deepEqual(out, [[], []]);
});

test('a batch’s health transitions go to the first record of their endpoint, once', async () => {
  const t = (endpointId: string) =>
    ({ endpointId, tenantId: 'ten_1', from: 'active', to: 'degraded' }) as HealthTransition;
  const f = fakeStore({ transitions: [t('ep_2'), t('ep_9')] });
  const { r } = recorder(f.store);
  const out = await r.commit([rec('a', 'ep_1'), rec('b', 'ep_2'), rec('c', 'ep_2')]);
  assert.deepEqual(out, [[], [t('ep_2')], []]);
});

test('submitted together, committed together: only the bad record’s caller is rejected', async () => {
  const f = fakeStore({ bad: ['b'] });
  const { r } = recorder(f.store);
  const settled = await Promise.allSettled(['a', 'b', 'c'].map((id) => r.submit(rec(id))));
  assert.deepEqual(f.calls[0], ['a', 'b', 'c']);
  assert.deepEqual(
    settled.map((s) => s.status),
    ['fulfilled', 'rejected', 'fulfilled'],
  );
  assert.equal((settled[1] as PromiseRejectedResult).reason.message, 'FOREIGN KEY constraint failed (b)');
});
