// The one conformance suite every DedupStore must pass (memory, SQLite, PostgreSQL, Redis).

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { DedupStore } from '../src/dedup-store.ts';
import { StorageUnavailable } from '../src/errors.ts';

export interface StoreUnderTest {
  store: DedupStore;
  /** Makes the backend unreachable (close the db, end the pool, disconnect). */
  breakBackend(): Promise<void>;
  /** Releases everything the factory created. */
  close(): Promise<void>;
}

export interface ConformanceOptions {
  /** A reason to skip the whole suite (service not reachable outside CI). */
  skip?: string | false;
  /** Whether `prune()` deletes (SQL, memory) or the store expires records itself (Redis). */
  prunes: boolean;
}

const STALE_MS = 60_000;
const T0 = 1_750_000_000_000;

/**
 * Runs the suite against a store factory; each test gets a fresh store (ids are unique per test
 * anyway, so shared backends are fine).
 *
 * @example
 * runStoreConformance('memory', async () => ({ store: memoryStore(), breakBackend: …, close: async () => {} }), { prunes: true });
 */
export function runStoreConformance(
  name: string,
  create: () => Promise<StoreUnderTest>,
  options: ConformanceOptions,
): void {
  describe(`${name} store conformance`, { skip: options.skip ?? false }, () => {
    let subject: StoreUnderTest;
    let store: DedupStore;
    let n = 0;
    const id = () => `evt_${process.pid}_${Date.now()}_${n++}_é`; // non-ASCII ids must round-trip
    const answer = { status: 202, body: '{"ok":true,"note":"ünïcode"}' };

    before(async () => {
      subject = await create();
      store = subject.store;
    });
    after(async () => {
      await subject?.close();
    });

    test('first claim wins and records the id as received', async () => {
      const eventId = id();
      assert.deepEqual(await store.claim(eventId, T0, STALE_MS), { kind: 'claimed', attempt: 1 });
      const record = await store.get(eventId);
      assert.equal(record?.state, 'received');
      assert.equal(record?.attempt, 1);
      assert.equal(record?.updatedAt, T0);
      assert.equal(await store.get(id()), undefined);
    });

    test('a second claim while received or processing is in progress, not a second run', async () => {
      const eventId = id();
      await store.claim(eventId, T0, STALE_MS);
      assert.deepEqual(await store.claim(eventId, T0 + 1, STALE_MS), {
        kind: 'in_progress',
        state: 'received',
        updatedAt: T0,
      });
      assert.equal(await store.markProcessing(eventId, 1, answer, T0 + 2), true);
      assert.deepEqual(await store.claim(eventId, T0 + 3, STALE_MS), {
        kind: 'in_progress',
        state: 'processing',
        updatedAt: T0 + 2,
      });
    });

    test('done keeps the stored answer and is never claimed again', async () => {
      const eventId = id();
      await store.claim(eventId, T0, STALE_MS);
      await store.markProcessing(eventId, 1, answer, T0);
      assert.equal(await store.markDone(eventId, 1, T0 + 5), true);
      assert.deepEqual(await store.claim(eventId, T0 + 10 * STALE_MS, STALE_MS), { kind: 'done', answer });
      assert.equal((await store.get(eventId))?.state, 'done');
    });

    test('markDone may set the answer straight from received', async () => {
      const eventId = id();
      await store.claim(eventId, T0, STALE_MS);
      assert.equal(await store.markDone(eventId, 1, T0, { status: 202, body: 'ignored' }), true);
      assert.deepEqual(await store.claim(eventId, T0, STALE_MS), {
        kind: 'done',
        answer: { status: 202, body: 'ignored' },
      });
    });

    test('failed is re-claimed by the next delivery with a new attempt', async () => {
      const eventId = id();
      await store.claim(eventId, T0, STALE_MS);
      await store.markProcessing(eventId, 1, answer, T0);
      assert.equal(await store.markFailed(eventId, 1, 'boom', T0 + 1), true);
      const failed = await store.get(eventId);
      assert.equal(failed?.state, 'failed');
      assert.equal(failed?.error, 'boom');
      assert.deepEqual(await store.claim(eventId, T0 + 2, STALE_MS), { kind: 'claimed', attempt: 2 });
      assert.equal((await store.get(eventId))?.error, undefined);
    });

    test('a stale claim (crash between record and done) is re-claimed; the old run is fenced out', async () => {
      const eventId = id();
      await store.claim(eventId, T0, STALE_MS);
      await store.markProcessing(eventId, 1, answer, T0);
      assert.equal((await store.claim(eventId, T0 + STALE_MS, STALE_MS)).kind, 'in_progress');
      assert.deepEqual(await store.claim(eventId, T0 + STALE_MS + 1, STALE_MS), { kind: 'claimed', attempt: 2 });
      assert.equal(await store.markDone(eventId, 1, T0 + STALE_MS + 2), false, 'attempt 1 no longer owns the record');
      assert.equal(await store.markFailed(eventId, 1, 'late', T0 + STALE_MS + 2), false);
      assert.equal(await store.markProcessing(eventId, 2, answer, T0 + STALE_MS + 3), true);
      assert.equal(await store.markDone(eventId, 2, T0 + STALE_MS + 4), true);
    });

    test('transitions only from the states they name', async () => {
      const eventId = id();
      await store.claim(eventId, T0, STALE_MS);
      await store.markDone(eventId, 1, T0, answer);
      assert.equal(await store.markProcessing(eventId, 1, answer, T0), false);
      assert.equal(await store.markFailed(eventId, 1, 'x', T0), false);
      assert.equal(await store.markDone(eventId, 1, T0), false);
      await store.release(eventId, 1);
      assert.equal((await store.get(eventId))?.state, 'done', 'release never forgets finished work');
      assert.equal(await store.markDone(id(), 1, T0), false, 'unknown id');
    });

    test('release forgets an unfinished claim so a redelivery starts afresh', async () => {
      const eventId = id();
      await store.claim(eventId, T0, STALE_MS);
      await store.release(eventId, 1);
      assert.equal(await store.get(eventId), undefined);
      assert.deepEqual(await store.claim(eventId, T0, STALE_MS), { kind: 'claimed', attempt: 1 });
    });

    test('concurrent claims of one id: exactly one wins', async () => {
      const eventId = id();
      const results = await Promise.all(Array.from({ length: 12 }, () => store.claim(eventId, T0, STALE_MS)));
      assert.equal(results.filter((r) => r.kind === 'claimed').length, 1);
      assert.equal(results.filter((r) => r.kind === 'in_progress').length, 11);
    });

    test('prune deletes finished records older than the cut-off', async () => {
      const old = id();
      const fresh = id();
      const running = id();
      for (const eventId of [old, fresh, running]) await store.claim(eventId, T0, STALE_MS);
      await store.markDone(old, 1, T0, answer);
      await store.markDone(fresh, 1, T0 + 100, answer);
      const removed = await store.prune(T0 + 50);
      if (!options.prunes) {
        assert.equal(removed, 0);
        return;
      }
      assert.ok(removed >= 1);
      assert.equal(await store.get(old), undefined);
      assert.equal((await store.get(fresh))?.state, 'done');
      assert.equal((await store.get(running))?.state, 'received', 'unfinished work is never pruned');
    });

    test('a broken backend surfaces as StorageUnavailable from every method', async () => {
      const eventId = id();
      await store.claim(eventId, T0, STALE_MS);
      await subject.breakBackend();
      const calls: Array<[string, () => Promise<unknown>]> = [
        ['claim', () => store.claim(id(), T0, STALE_MS)],
        ['markProcessing', () => store.markProcessing(eventId, 1, answer, T0)],
        ['markDone', () => store.markDone(eventId, 1, T0)],
        ['markFailed', () => store.markFailed(eventId, 1, 'x', T0)],
        ['release', () => store.release(eventId, 1)],
        ['get', () => store.get(eventId)],
      ];
      if (options.prunes) calls.push(['prune', () => store.prune(T0)]);
      for (const [method, call] of calls) {
        await assert.rejects(
          call,
          (error: unknown) => error instanceof StorageUnavailable && error.code === 'storage_unavailable',
          method,
        );
      }
    });
  });
}
