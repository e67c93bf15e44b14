// The search's bounds on a store that only counts what it is asked: the window rule, the per-page scan budget and
// bounded batch reads.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EventRecord } from '../domain.ts';
import type { EventScan } from '../store/store.ts';
import { EVENT_SEARCH_LIMITS, exportEvents, searchEvents } from './event-search.ts';

/** A tenant of `total` events (ids in order, data.n = i); every read is recorded. */
function fakeStore(total: number) {
  const reads: EventScan[] = [];
  const counted: number[] = [];
  const idOf = (i: number) => `evt_${String(i).padStart(26, '0')}`;
  const eventOf = (i: number): EventRecord => ({
    id: idOf(i),
    tenantId: 'ten_A',
    eventId: `e-${i}`,
    type: 't',
    version: '1',
    occurredAt: '2026-01-05T12:00:00.000Z',
    body: Buffer.from(JSON.stringify({ event_id: `e-${i}`, type: 't', version: '1', occurred_at: '', data: { n: i } })),
    isMoney: false,
    createdAt: 0,
  });
  return {
    reads,
    counted,
    idOf,
    async scanEvents(scan: EventScan) {
      reads.push(scan);
      if (scan.order !== 'id') throw new Error('by id only');
      const start = scan.afterId === 'evt_' ? 0 : Number(scan.afterId.slice(4)) + 1;
      const out: EventRecord[] = [];
      for (let i = start; i < total && out.length < scan.limit; i++) out.push(eventOf(i));
      return out;
    },
    async eventDeliveryStatuses() {
      return [];
    },
    async countEventsUpTo(_tenantId: string, _type: string | null, cap: number) {
      counted.push(cap);
      return Math.min(total, cap);
    },
    async eventIdOf() {
      return null;
    },
  };
}

const max = EVENT_SEARCH_LIMITS.maxUnwindowedFilterScan;
const never = { path: 'data.n', lt: 0 };

test('a filter without a window over more than the limit is refused; with a window, or fewer events, it runs', async () => {
  const big = fakeStore(max + 1);
  await assert.rejects(searchEvents(big, { tenantId: 'ten_A', filter: never }, null, 10), {
    code: 'event_search_window_required',
  });
  assert.deepEqual(big.counted, [max + 1], 'the count stops one past the limit');
  assert.equal(big.reads.length, 0, 'refused before any scan');
  await assert.rejects(exportEvents(big, { tenantId: 'ten_A', filter: never }, null).next(), {
    code: 'event_search_window_required',
  });
  const windowed = await searchEvents(big, { tenantId: 'ten_A', filter: never, since: 0 }, null, 10);
  assert.ok(windowed.nextCursor, 'budget spent before the end: a cursor to go on');
  const small = fakeStore(max);
  assert.equal((await searchEvents(small, { tenantId: 'ten_A', filter: never }, null, 10)).items.length, 0);
  const unfiltered = fakeStore(max + 1);
  await searchEvents(unfiltered, { tenantId: 'ten_A' }, null, 10);
  assert.deepEqual(unfiltered.counted, [], 'no filter, no count');
});

test('a page scans at most pageScanRows in bounded batches, then answers with a cursor that goes on', async () => {
  const store = fakeStore(EVENT_SEARCH_LIMITS.pageScanRows * 3);
  const q = { tenantId: 'ten_A', filter: { path: 'data.n', gte: EVENT_SEARCH_LIMITS.pageScanRows * 2 + 5 }, since: 0 };
  const first = await searchEvents(store, q, null, 3);
  assert.deepEqual(first.items, []);
  assert.ok(first.nextCursor);
  assert.ok(store.reads.every((r) => r.limit <= EVENT_SEARCH_LIMITS.batchRows));
  const scanned = store.reads.reduce((n, r) => n + r.limit, 0);
  assert.ok(scanned <= EVENT_SEARCH_LIMITS.pageScanRows, `scanned ${scanned}`);
  let cursor: string | null = first.nextCursor;
  const found: string[] = [];
  for (let pages = 0; cursor !== null && found.length < 3; pages++) {
    assert.ok(pages < 1000, 'the cursor makes progress');
    const page: Awaited<ReturnType<typeof searchEvents>> = await searchEvents(store, q, cursor, 3);
    found.push(...page.items.map((h) => h.event.eventId));
    cursor = page.nextCursor;
  }
  const n = EVENT_SEARCH_LIMITS.pageScanRows * 2 + 5;
  assert.deepEqual(found, [`e-${n}`, `e-${n + 1}`, `e-${n + 2}`]);
});

test('without a filter a page is one read of limit + 1; the export reads batch by batch', async () => {
  const store = fakeStore(25);
  const page = await searchEvents(store, { tenantId: 'ten_A' }, null, 10);
  assert.equal(page.items.length, 10);
  assert.deepEqual(
    store.reads.map((r) => r.limit),
    [11],
  );
  const big = fakeStore(EVENT_SEARCH_LIMITS.batchRows * 2 + 1);
  let lines = 0;
  let batches = 0;
  for await (const batch of exportEvents(big, { tenantId: 'ten_A' }, big.idOf(0))) {
    lines += batch.length;
    batches++;
  }
  assert.equal(lines, EVENT_SEARCH_LIMITS.batchRows * 2, 'after the first');
  assert.equal(batches, 2);
  assert.ok(big.reads.every((r) => r.limit === EVENT_SEARCH_LIMITS.batchRows));
});
