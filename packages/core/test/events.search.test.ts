// Event search and export through the engine over SQLite (docs/api.md#event-search): the window's edges to the
// millisecond, the type, the event_id prefix in byte order (with the window and type inside it), pages and cursors
// that neither skip nor repeat, cursors that belong to one kind of search, and the export resuming after an id.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { VirtualClock } from '../src/clock.ts';
import { isHooklineError } from '../src/errors.ts';
import type { EventSearchQuery } from '../src/operations/event-search.ts';
import { testEngine } from '../testing/harness.ts';
import { MIN } from '../testing/time.ts';

type T = Awaited<ReturnType<typeof testEngine>>;

/** Accepts one event at `at` (ids are made from the engine's clock, so each records its accept millisecond). */
async function acceptAt(t: T, at: number, eventId: string, type = 'order.created', data: unknown = {}) {
  t.clock.set(at);
  const [r] = await t.engine.events.acceptMany(t.tenantId, [{ event_id: eventId, type, data }]);
  if (r instanceof Error) throw r;
}

/** Every hit's event_id, page by page at `limit`; also how many pages it took. */
async function allPages(t: T, q: Omit<EventSearchQuery, 'tenantId'>, limit: number) {
  const pages: string[][] = [];
  let cursor: string | null = null;
  do {
    const page: Awaited<ReturnType<T['engine']['events']['search']>> = await t.engine.events.search(
      { tenantId: t.tenantId, ...q },
      cursor,
      limit,
    );
    pages.push(page.items.map((h) => h.event.eventId));
    cursor = page.nextCursor;
    assert.ok(pages.length <= 20, 'the cursor makes progress');
  } while (cursor !== null);
  return pages;
}

async function exported(t: T, q: Omit<EventSearchQuery, 'tenantId'>, afterId: string | null = null) {
  const out: string[] = [];
  for await (const batch of t.engine.events.export({ tenantId: t.tenantId, ...q }, afterId))
    out.push(...batch.map((h) => h.event.eventId));
  return out;
}

// Ids are monotonic per process (ids.ts): one made from the real clock (the audit's, say) lifts every later id to its
// millisecond. A virtual clock ahead of the real one keeps the ids' times the accept times the test sets.
const T0 = Date.UTC(2031, 0, 5, 12, 30);
const engine = () => testEngine({ clock: new VirtualClock(T0 - MIN) });

test('the window is inclusive to the millisecond at both ends; the type narrows it', async () => {
  const t = await engine();
  try {
    await acceptAt(t, T0 - 1, 'before');
    await acceptAt(t, T0, 'first');
    await acceptAt(t, T0 + 1, 'middle', 'order.paid');
    await acceptAt(t, T0 + 2, 'last');
    await acceptAt(t, T0 + 3, 'after');
    const ids = async (q: Omit<EventSearchQuery, 'tenantId'>) => (await allPages(t, q, 50)).flat();
    assert.deepEqual(await ids({ since: T0, until: T0 + 2 }), ['first', 'middle', 'last']);
    assert.deepEqual(await ids({ since: T0 + 1, until: T0 + 1 }), ['middle']);
    assert.deepEqual(await ids({ since: T0 + 3 }), ['after']);
    assert.deepEqual(await ids({ until: T0 - 1 }), ['before']);
    assert.deepEqual(await ids({ since: T0 + 4 }), []);
    assert.deepEqual(await ids({ type: 'order.created', since: T0, until: T0 + 2 }), ['first', 'last']);
    assert.deepEqual(await ids({ type: 'order.paid' }), ['middle']);
    // With a filter the scan goes batch by batch: the same edges.
    const all = { path: 'type', exists: true };
    assert.deepEqual(await ids({ since: T0 + 1, until: T0 + 2, filter: all }), ['middle', 'last']);
    assert.deepEqual(await exported(t, { since: T0, until: T0 + 1 }), ['first', 'middle']);
    assert.deepEqual(await exported(t, { since: T0 + 1, until: T0 + 1, filter: all }), ['middle']);
  } finally {
    await t.close();
  }
});

test('by prefix: byte order of event_id, only ids that start with it, the window and type within it', async () => {
  const t = await engine();
  try {
    const at = T0 + 10 * MIN;
    // Accepted out of event_id order; the neighbours sort just outside the prefix on either side.
    const order = ['ord-2', 'orc-9', 'ord-10', 'ord', 'ore', 'ord-1', 'or', 'ORD-1', 'ord-1-x'];
    for (const [i, id] of order.entries()) await acceptAt(t, at + i, id, i === 5 ? 'order.paid' : 'order.created');
    const q = { eventIdPrefix: 'ord' };
    const byPrefix = ['ord', 'ord-1', 'ord-1-x', 'ord-10', 'ord-2'];
    assert.deepEqual((await allPages(t, q, 50)).flat(), byPrefix);
    assert.deepEqual(await allPages(t, q, 2), [byPrefix.slice(0, 2), byPrefix.slice(2, 4), byPrefix.slice(4)]);
    assert.deepEqual((await allPages(t, { eventIdPrefix: 'ord-1' }, 1)).flat(), ['ord-1', 'ord-1-x', 'ord-10']);
    assert.deepEqual((await allPages(t, { eventIdPrefix: 'ore' }, 50)).flat(), ['ore']);
    assert.deepEqual((await allPages(t, { eventIdPrefix: 'orf' }, 50)).flat(), []);
    // The window (by accept time) and the type apply inside the prefix: ord-10 at +2, ord at +3, ord-1 at +5.
    assert.deepEqual((await allPages(t, { ...q, since: at + 2, until: at + 5 }, 50)).flat(), [
      'ord',
      'ord-1',
      'ord-10',
    ]);
    assert.deepEqual((await allPages(t, { ...q, since: at + 3, until: at + 3 }, 50)).flat(), ['ord']);
    assert.deepEqual((await allPages(t, { ...q, type: 'order.paid' }, 50)).flat(), ['ord-1']);
    assert.deepEqual(await exported(t, q), byPrefix);
    // The export resumes after an event's internal id: by prefix, after that event's event_id.
    const ord1 = (await t.engine.events.search({ tenantId: t.tenantId, eventIdPrefix: 'ord-1' }, null, 1)).items[0];
    assert.deepEqual(await exported(t, q, ord1.event.id), ['ord-1-x', 'ord-10', 'ord-2']);
  } finally {
    await t.close();
  }
});

test('pages neither skip nor repeat; a cursor belongs to its kind of search', async () => {
  const t = await engine();
  try {
    const at = T0 + 20 * MIN;
    const ids = Array.from({ length: 7 }, (_, i) => `p-${i}`);
    for (const [i, id] of ids.entries()) await acceptAt(t, at + i, id);
    // Without a filter a page is exact: 7 at 7 is one page with no cursor; at 3, pages of 3, 3, 1.
    assert.deepEqual(await allPages(t, { since: at }, 7), [ids]);
    assert.deepEqual(await allPages(t, { since: at }, 3), [ids.slice(0, 3), ids.slice(3, 6), ids.slice(6)]);
    assert.deepEqual(await allPages(t, { since: at, until: at + 5 }, 3), [ids.slice(0, 3), ids.slice(3, 6)]);
    // With a filter: the same pages (a cursor after the last hit may lead to an empty last page, never a repeat).
    const even = { path: 'event_id', in: ['p-0', 'p-2', 'p-4', 'p-6'] };
    assert.deepEqual((await allPages(t, { since: at, filter: even }, 2)).flat(), ['p-0', 'p-2', 'p-4', 'p-6']);
    assert.deepEqual((await allPages(t, { eventIdPrefix: 'p-', filter: even }, 3)).flat(), [
      'p-0',
      'p-2',
      'p-4',
      'p-6',
    ]);
    // A cursor of a search by prefix carries the event_id: it goes on only with a prefix, and the other way round.
    const byId = await t.engine.events.search({ tenantId: t.tenantId, since: at }, null, 2);
    const byPrefix = await t.engine.events.search({ tenantId: t.tenantId, eventIdPrefix: 'p-' }, null, 2);
    assert.ok(byId.nextCursor && byPrefix.nextCursor);
    const invalid = (e: unknown) => isHooklineError(e) && e.code === 'invalid_cursor';
    await assert.rejects(
      t.engine.events.search({ tenantId: t.tenantId, eventIdPrefix: 'p-' }, byId.nextCursor, 2),
      invalid,
    );
    await assert.rejects(t.engine.events.search({ tenantId: t.tenantId, since: at }, byPrefix.nextCursor, 2), invalid);
    await assert.rejects(t.engine.events.search({ tenantId: t.tenantId }, 'not-a-cursor', 2), invalid);
    await assert.rejects(exported(t, {}, 'evt_bad'), invalid);
    const next = await t.engine.events.search({ tenantId: t.tenantId, eventIdPrefix: 'p-' }, byPrefix.nextCursor, 2);
    assert.deepEqual(
      next.items.map((h) => h.event.eventId),
      ['p-2', 'p-3'],
    );
  } finally {
    await t.close();
  }
});
