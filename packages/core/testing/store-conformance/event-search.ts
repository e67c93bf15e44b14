// Store conformance, event search: the bounded batch reads (by id in a window, by type, by event_id prefix in byte
// order), the deliveries of a page, the capped count, and the search/export operations on top giving the filter's
// exact semantics.
import assert from 'node:assert/strict';
import type { PayloadFilter } from '../../src/filters/payload-filter.ts';
import { matchesFilter } from '../../src/filters/payload-filter.ts';
import { idAt } from '../../src/ids.ts';
import { type EventSearchQuery, exportEvents, searchEvents } from '../../src/operations/event-search.ts';
import type { NewEvent, Store } from '../../src/store/store.ts';
import { endpoint, S, secret, T0, tenant, type WithStore } from './fixtures.ts';

/** An event with a real-shaped id (accept time `at`, then `n`), its envelope as ingest writes it. */
export function searchEvent(
  tenantId: string,
  n: number,
  over: { at?: number; type?: string; eventId?: string; data?: unknown; endpoints?: string[] } = {},
): NewEvent {
  const at = over.at ?? T0 + n * S;
  const id = `${idAt('evt', at).slice(0, 14)}${String(n).padStart(16, '0')}`;
  const eventId = over.eventId ?? `e-${String(n).padStart(4, '0')}`;
  const type = over.type ?? 'thing.happened';
  const body = Buffer.from(
    JSON.stringify({
      event_id: eventId,
      type,
      version: '1',
      occurred_at: new Date(at).toISOString(),
      data: over.data ?? { n },
    }),
  );
  return {
    event: {
      id,
      tenantId,
      eventId,
      type,
      version: '1',
      occurredAt: new Date(at).toISOString(),
      body,
      isMoney: false,
      createdAt: at,
    },
    bodyHash: `h-${n}`,
    deliveries: (over.endpoints ?? []).map((ep, i) => ({
      id: `dlv_${String(n).padStart(6, '0')}_${i}`,
      endpointId: ep,
      status: 'pending' as const,
      nextAttemptAt: at,
    })),
  };
}

async function twoTenants(store: Store): Promise<void> {
  await store.catalog.createTenant(tenant('ten_A'));
  await store.catalog.createTenant(tenant('ten_B'));
  await store.catalog.createEndpoint(endpoint('ep_1', 'ten_A'), secret('sec_1', 'ep_1'));
  await store.catalog.createEndpoint(endpoint('ep_2', 'ten_A'), secret('sec_2', 'ep_2'));
}

const ids = (events: Array<{ event: { eventId: string } } | { eventId: string }>) =>
  events.map((e) => ('event' in e ? e.event.eventId : e.eventId));

async function collectExport(store: Store, q: EventSearchQuery, after: string | null = null) {
  const out: string[] = [];
  for await (const batch of exportEvents(store.events, q, after)) for (const h of batch) out.push(h.event.eventId);
  return out;
}

export function eventSearchConformance(withStore: WithStore): void {
  withStore('scanEvents by id: window range, type, keyset, tenant isolation', async (store) => {
    await twoTenants(store);
    await store.events.acceptEvents([
      ...Array.from({ length: 6 }, (_, i) => searchEvent('ten_A', i + 1, { type: i % 2 ? 'b.odd' : 'a.even' })),
      searchEvent('ten_B', 7),
    ]);
    const all = await store.events.scanEvents({
      order: 'id',
      tenantId: 'ten_A',
      type: null,
      afterId: 'evt_',
      toId: `evt_${'Z'.repeat(26)}`,
      limit: 10,
    });
    assert.deepEqual(
      ids(all),
      ['e-0001', 'e-0002', 'e-0003', 'e-0004', 'e-0005', 'e-0006'],
      'oldest first, only ten_A',
    );
    const page = await store.events.scanEvents({
      order: 'id',
      tenantId: 'ten_A',
      type: 'b.odd',
      afterId: all[1].id,
      toId: idAt('evt', T0 + 6 * S),
      limit: 10,
    });
    assert.deepEqual(ids(page), ['e-0004'], 'type, before 6 s and after e-0002');
    const limited = await store.events.scanEvents({
      order: 'id',
      tenantId: 'ten_A',
      type: null,
      afterId: all[2].id,
      toId: `evt_${'Z'.repeat(26)}`,
      limit: 2,
    });
    assert.deepEqual(ids(limited), ['e-0004', 'e-0005']);
    assert.deepEqual(all[0].body.toString(), (await store.events.getEvent('ten_A', 'e-0001'))?.event.body.toString());
  });

  withStore('scanEvents by event_id: byte order from a prefix, after a keyset event_id', async (store) => {
    await twoTenants(store);
    const names = ['ord_2', 'ord_10', 'ORD_1', 'ord_é', 'ord_z', 'oré', 'pay_1'];
    await store.events.acceptEvents(names.map((eventId, i) => searchEvent('ten_A', i + 1, { eventId })));
    await store.events.acceptEvents([searchEvent('ten_B', 20, { eventId: 'ord_3' })]);
    const scan = (afterEventId: string, limit = 10) =>
      store.events.scanEvents({ order: 'event_id', tenantId: 'ten_A', fromEventId: 'ord_', afterEventId, limit });
    // Byte order of UTF-8: uppercase before lowercase, 'z' (0x7a) before 'é' (0xc3 0xa9); ORD_1 is below the prefix.
    assert.deepEqual(ids(await scan('')), ['ord_10', 'ord_2', 'ord_z', 'ord_é', 'oré', 'pay_1']);
    assert.deepEqual(ids(await scan('ord_2', 2)), ['ord_z', 'ord_é']);
  });

  withStore('eventDeliveryStatuses, countEventsUpTo and eventIdOf', async (store) => {
    await twoTenants(store);
    await store.events.acceptEvents([
      searchEvent('ten_A', 1, { endpoints: ['ep_1', 'ep_2'] }),
      searchEvent('ten_A', 2, { endpoints: ['ep_2'], type: 'x' }),
      searchEvent('ten_A', 3),
    ]);
    const [e1, e2, e3] = await store.events.scanEvents({
      order: 'id',
      tenantId: 'ten_A',
      type: null,
      afterId: 'evt_',
      toId: `evt_${'Z'.repeat(26)}`,
      limit: 10,
    });
    const statuses = await store.events.eventDeliveryStatuses('ten_A', [e1.id, e2.id, e3.id]);
    assert.deepEqual(
      statuses.map((s) => [s.eventPk, s.deliveryId, s.endpointId, s.status, s.attemptCount]),
      [
        [e1.id, 'dlv_000001_0', 'ep_1', 'pending', 0],
        [e1.id, 'dlv_000001_1', 'ep_2', 'pending', 0],
        [e2.id, 'dlv_000002_0', 'ep_2', 'pending', 0],
      ],
    );
    assert.deepEqual(await store.events.eventDeliveryStatuses('ten_B', [e1.id]), [], 'tenant-scoped');
    assert.equal(await store.events.countEventsUpTo('ten_A', null, 10), 3);
    assert.equal(await store.events.countEventsUpTo('ten_A', null, 2), 2, 'capped');
    assert.equal(await store.events.countEventsUpTo('ten_A', 'x', 10), 1);
    assert.equal(await store.events.countEventsUpTo('ten_B', null, 10), 0);
    assert.equal(await store.events.eventIdOf('ten_A', e2.id), 'e-0002');
    assert.equal(await store.events.eventIdOf('ten_B', e2.id), null);
  });

  withStore('search and export select exactly what the payload filter matches, page by page', async (store) => {
    await twoTenants(store);
    const datas: unknown[] = [
      { status: 'paid', amount: 10 },
      { status: 'failed', amount: 5 },
      { status: 'paid', amount: '10' },
      { status: 'paid' },
      { nested: { list: [1, 2] } },
      null,
      { status: 'settled', amount: 99.5 },
    ];
    const events = Array.from({ length: 35 }, (_, i) =>
      searchEvent('ten_A', i + 1, {
        data: datas[i % datas.length],
        type: i % 3 ? 'pay.x' : 'pay.y',
        endpoints: ['ep_1'],
      }),
    );
    await store.events.acceptEvents(events);
    const filters: PayloadFilter[] = [
      { path: 'data.status', equals: 'paid' },
      { path: 'data.amount', gte: 10 },
      {
        any: [
          { path: 'data.amount', exists: false },
          { path: 'data.nested.list.1', equals: 2 },
        ],
      },
      { path: 'data.status', in: ['paid', 'settled'] },
    ];
    for (const filter of filters) {
      const expected = events
        .filter((ne) => ne.event.type === 'pay.x' && matchesFilter(filter, JSON.parse(ne.event.body.toString())))
        .map((ne) => ne.event.eventId);
      const q = { tenantId: 'ten_A', type: 'pay.x', filter };
      const paged: string[] = [];
      let cursor: string | null = null;
      do {
        const page: Awaited<ReturnType<typeof searchEvents>> = await searchEvents(store.events, q, cursor, 3);
        assert.ok(page.items.length <= 3);
        for (const h of page.items)
          assert.deepEqual(
            h.deliveries.map((d) => d.endpointId),
            ['ep_1'],
          );
        paged.push(...ids(page.items));
        cursor = page.nextCursor;
      } while (cursor !== null);
      assert.deepEqual(paged, expected, JSON.stringify(filter));
      assert.deepEqual(await collectExport(store, q), expected, `export ${JSON.stringify(filter)}`);
      // Resumed after the third hit, the export gives the rest.
      const third = events.find((ne) => ne.event.eventId === expected[2]);
      assert.deepEqual(await collectExport(store, q, third?.event.id ?? null), expected.slice(3));
    }
  });

  withStore('search by prefix and window; the window and the cursor are checked', async (store) => {
    await twoTenants(store);
    await store.events.acceptEvents(
      Array.from({ length: 12 }, (_, i) =>
        searchEvent('ten_A', i + 1, { eventId: `${i % 2 ? 'ord' : 'inv'}_${String(12 - i).padStart(2, '0')}` }),
      ),
    );
    const q = { tenantId: 'ten_A', eventIdPrefix: 'ord_', since: T0 + 3 * S, until: T0 + 10 * S };
    const first = await searchEvents(store.events, q, null, 2);
    assert.deepEqual(ids(first.items), ['ord_03', 'ord_05'], 'event_id order, accept times 3 s … 10 s inclusive');
    assert.ok(first.nextCursor);
    const rest = await searchEvents(store.events, q, first.nextCursor, 10);
    assert.deepEqual(ids(rest.items), ['ord_07', 'ord_09']);
    assert.equal(rest.nextCursor, null);
    assert.deepEqual(await collectExport(store, q), ['ord_03', 'ord_05', 'ord_07', 'ord_09']);
    await assert.rejects(searchEvents(store.events, q, 'not-a-cursor', 2), { code: 'invalid_cursor' });
    const noPrefix = await searchEvents(store.events, { tenantId: 'ten_A' }, null, 5);
    assert.equal(noPrefix.items.length, 5);
    await assert.rejects(
      searchEvents(store.events, q, noPrefix.nextCursor, 2),
      { code: 'invalid_cursor' },
      'modes differ',
    );
  });
}
