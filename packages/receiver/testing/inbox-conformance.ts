// The one conformance suite every InboxStore must pass (memory, SQLite, PostgreSQL, Redis).

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { StorageUnavailable } from '../src/errors.ts';
import type { InboxEvent, InboxStore } from '../src/inbox/inbox-store.ts';

export interface InboxUnderTest {
  store: InboxStore;
  /** A second handle on the same backend (another process's view), for claim races. */
  twin?: InboxStore;
  /** Makes the backend unreachable (close the db, end the pool, disconnect). */
  breakBackend(): Promise<void>;
  close(): Promise<void>;
}

const T0 = 1_750_000_000_000;
const LEASE = 30_000;

/**
 * Runs the suite against a fresh, empty inbox per suite (claims see every due entry).
 *
 * @example
 * runInboxConformance('memory', async () => ({ store: memoryInbox(), breakBackend: …, close: async () => {} }));
 */
export function runInboxConformance(
  name: string,
  create: () => Promise<InboxUnderTest>,
  skip: string | false = false,
): void {
  describe(`${name} inbox conformance`, { skip }, () => {
    let subject: InboxUnderTest;
    let store: InboxStore;
    let n = 0;
    // Tests claim with ever later clocks so entries left by earlier tests are drained first.
    let clock = T0;
    const later = (ms = 10 * 24 * 3600_000) => (clock += ms);
    const event = (overrides: Partial<InboxEvent> = {}): InboxEvent => ({
      eventId: `evt_${n++}_é`, // non-ASCII ids must round-trip
      type: 'order.shipped',
      deliveryId: `dlv_${n}`,
      scheme: 'hookline',
      headers: { 'x-webhook-id': `evt_${n}`, 'x-webhook-signature': 't=1,v1=ab' },
      body: Buffer.from([0x7b, 0x7d, 0x00, 0xff, 0xfe]), // bytes, not text: must come back byte for byte
      receivedAt: clock,
      ...overrides,
    });
    const drain = async () => {
      // Leaves no due entry behind, so each test sees only its own.
      for (const entry of await store.claim(later(), 1, 1000))
        await store.complete(entry.eventId, entry.attempt, clock);
    };

    before(async () => {
      subject = await create();
      store = subject.store;
    });
    after(async () => {
      await subject?.close();
    });

    test('accept stores the event as it arrived, pending; a second accept is a duplicate', async () => {
      const e = event();
      assert.deepEqual(await store.accept(e), { kind: 'accepted' });
      assert.deepEqual(await store.accept({ ...e, body: Buffer.from('other') }), {
        kind: 'duplicate',
        state: 'pending',
      });
      const entry = await store.get(e.eventId);
      assert.ok(entry);
      assert.deepEqual(
        { ...entry, body: Buffer.from(entry.body) },
        {
          ...e,
          body: Buffer.from(e.body),
          state: 'pending',
          attempt: 0,
          failures: 0,
          availableAt: e.receivedAt,
          updatedAt: e.receivedAt,
          error: undefined,
        },
      );
      assert.equal(await store.get('evt_never'), undefined);
      const bare = event({ deliveryId: undefined, scheme: 'standard', headers: {} });
      await store.accept(bare);
      const stored = await store.get(bare.eventId);
      assert.deepEqual([stored?.deliveryId, stored?.scheme, stored?.headers], [undefined, 'standard', {}]);
      await drain();
    });

    test('concurrent accepts of one id: exactly one is stored', async () => {
      const e = event();
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          (i % 2 === 0 || subject.twin === undefined ? store : subject.twin).accept(e),
        ),
      );
      assert.equal(results.filter((r) => r.kind === 'accepted').length, 1);
      assert.equal(results.filter((r) => r.kind === 'duplicate').length, 11);
      await drain();
    });

    test('claim leases due entries oldest first, up to the limit, and not the future ones', async () => {
      const t = later();
      const [a, b, c] = [event({ receivedAt: t }), event({ receivedAt: t + 1 }), event({ receivedAt: t + 5_000 })];
      for (const e of [c, a, b]) await store.accept(e);
      const first = await store.claim(t + 10, LEASE, 1);
      assert.deepEqual(
        first.map((x) => [x.eventId, x.state, x.attempt, x.availableAt]),
        [[a.eventId, 'running', 1, t + 10 + LEASE]],
      );
      assert.deepEqual(Buffer.from(first[0]!.body), Buffer.from(a.body));
      const second = await store.claim(t + 10, LEASE, 10);
      assert.deepEqual(
        second.map((x) => x.eventId),
        [b.eventId],
        'the leased one is not claimed again; the future one is not due',
      );
      assert.deepEqual(await store.accept(a), { kind: 'duplicate', state: 'running' });
      await drain();
    });

    test('an expired lease is claimed again with a new attempt; the old holder is fenced out', async () => {
      const t = later();
      const e = event({ receivedAt: t });
      await store.accept(e);
      const [held] = await store.claim(t, LEASE, 1);
      assert.equal(held?.attempt, 1);
      assert.deepEqual(await store.claim(t + LEASE - 1, LEASE, 10), [], 'lease still held');
      const [taken] = await store.claim(t + LEASE, LEASE, 10);
      assert.deepEqual([taken?.eventId, taken?.attempt], [e.eventId, 2]);
      assert.equal(await store.complete(e.eventId, 1, t + LEASE + 1), false, 'attempt 1 lost its lease');
      assert.equal(await store.reschedule(e.eventId, 1, 'late', t, t), false);
      assert.equal(await store.bury(e.eventId, 1, 'late', t), false);
      assert.equal(await store.complete(e.eventId, 2, t + LEASE + 2), true);
      assert.equal((await store.get(e.eventId))?.state, 'done');
      assert.equal(await store.complete(e.eventId, 2, t + LEASE + 3), false, 'done is final');
      assert.deepEqual(await store.accept(e), { kind: 'duplicate', state: 'done' });
    });

    test('reschedule makes it due later and counts the failure; bury keeps the error in the dead letter', async () => {
      const t = later();
      const e = event({ receivedAt: t });
      await store.accept(e);
      const [one] = await store.claim(t, LEASE, 1);
      assert.equal(await store.reschedule(e.eventId, one!.attempt, 'smtp down', t + 1000, t + 1), true);
      const waiting = await store.get(e.eventId);
      assert.deepEqual(
        [waiting?.state, waiting?.failures, waiting?.error, waiting?.availableAt],
        ['pending', 1, 'smtp down', t + 1000],
      );
      assert.deepEqual(await store.claim(t + 999, LEASE, 10), [], 'not due before its backoff');
      const [two] = await store.claim(t + 1000, LEASE, 10);
      assert.deepEqual([two?.attempt, two?.failures], [2, 1]);
      assert.equal(await store.bury(e.eventId, 2, 'x'.repeat(5000), t + 1001), true);
      const dead = await store.deadLetters(100);
      const mine = dead.find((d) => d.eventId === e.eventId);
      assert.deepEqual([mine?.state, mine?.failures, mine?.error?.length], ['dead', 2, 1000], 'error stored bounded');
      assert.deepEqual(await store.claim(later(), LEASE, 1000), [], 'dead is never claimed');
      assert.equal(await store.revive('evt_not_dead', clock), false);
      assert.equal(await store.revive(e.eventId, clock), true);
      assert.equal(
        (await store.deadLetters(100)).some((d) => d.eventId === e.eventId),
        false,
      );
      const [three] = await store.claim(clock, LEASE, 10);
      assert.deepEqual(
        [three?.eventId, three?.attempt, three?.failures],
        [e.eventId, 3, 0],
        'a fresh set of tries, still fenced by a new attempt',
      );
      assert.equal(await store.revive(e.eventId, clock), false, 'only the dead are revived');
      await store.complete(e.eventId, 3, clock);
    });

    test('dead letters list oldest first, bounded by the limit', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        const t = later();
        const e = event({ receivedAt: t });
        ids.push(e.eventId);
        await store.accept(e);
        const [c] = await store.claim(t, LEASE, 1);
        await store.bury(e.eventId, c!.attempt, `boom ${i}`, t);
      }
      const listed = (await store.deadLetters(100)).map((d) => d.eventId).filter((id) => ids.includes(id));
      assert.deepEqual(listed, ids);
      assert.ok((await store.deadLetters(1)).length === 1);
      for (const id of ids) await store.revive(id, clock);
      await drain();
    });

    test('prune deletes done entries finished before the cut-off, never unfinished or dead ones', async () => {
      const t = later();
      await store.prune(t, 100_000); // what earlier tests finished is older still
      const [old, fresh, waiting, dead] = [
        event({ receivedAt: t }),
        event({ receivedAt: t }),
        event({ receivedAt: t + 1_000_000 }),
        event({ receivedAt: t }),
      ];
      for (const e of [old, fresh, waiting, dead]) await store.accept(e);
      const claimed = await store.claim(t, LEASE, 10);
      const attempt = (id: string) => claimed.find((c) => c.eventId === id)!.attempt;
      await store.complete(old.eventId, attempt(old.eventId), t + 10);
      await store.complete(fresh.eventId, attempt(fresh.eventId), t + 100);
      await store.bury(dead.eventId, attempt(dead.eventId), 'boom', t + 10);
      assert.equal(await store.prune(t + 50, 1000), 1);
      assert.equal(await store.get(old.eventId), undefined);
      assert.equal((await store.get(fresh.eventId))?.state, 'done');
      assert.equal((await store.get(waiting.eventId))?.state, 'pending');
      assert.equal((await store.get(dead.eventId))?.state, 'dead');
      assert.equal(await store.prune(t + 200, 1000), 1);
      assert.deepEqual(await store.accept(old), { kind: 'accepted' }, 'a pruned id is new again');
      await store.revive(dead.eventId, clock);
      await drain();
    });

    test('two workers claiming at once never get the same entry', async () => {
      const t = later();
      const accepted = Array.from({ length: 40 }, () => event({ receivedAt: t }));
      for (const e of accepted) await store.accept(e);
      const other = subject.twin ?? store;
      const batches = await Promise.all(
        Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? store : other).claim(t, LEASE, 7)),
      );
      const ids = batches.flat().map((e) => e.eventId);
      assert.equal(new Set(ids).size, ids.length, 'no entry leased twice');
      assert.equal(ids.length, 40);
      await drain();
    });

    test('a broken backend surfaces as StorageUnavailable from every method', async () => {
      const e = event();
      await subject.breakBackend();
      const calls: Array<[string, () => Promise<unknown>]> = [
        ['accept', () => store.accept(e)],
        ['claim', () => store.claim(T0, LEASE, 1)],
        ['complete', () => store.complete(e.eventId, 1, T0)],
        ['reschedule', () => store.reschedule(e.eventId, 1, 'x', T0, T0)],
        ['bury', () => store.bury(e.eventId, 1, 'x', T0)],
        ['revive', () => store.revive(e.eventId, T0)],
        ['deadLetters', () => store.deadLetters(10)],
        ['get', () => store.get(e.eventId)],
        ['prune', () => store.prune(T0, 10)],
      ];
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
