// Store conformance, events and deliveries: accepting events (idempotency, exact bytes) and listing deliveries.
import assert from 'node:assert/strict';
import { newEvent, S, setup, T0, type WithStore } from './fixtures.ts';

export function eventsDeliveriesConformance(withStore: WithStore): void {
  withStore(
    'acceptEvents: created, existing on the same body, conflict on another; exact bytes kept',
    async (store) => {
      await setup(store);
      const bytes = Buffer.from([0x7b, 0x00, 0xff, 0xfe, 0x7d]); // not UTF-8: stored and returned byte for byte
      const [r1, r2] = await store.events.acceptEvents([
        newEvent('ten_A', 1, ['ep_1', 'ep_2'], { body: bytes, isMoney: true }),
        newEvent('ten_A', 2, ['ep_1'], { skipped: ['ep_1'] }),
      ]);
      assert.equal(r1.kind, 'created');
      assert.equal(r2.kind, 'created');
      if (r1.kind !== 'created' || r2.kind !== 'created') return;
      assert.deepEqual(
        r1.deliveries.map((d) => [d.endpointId, d.status, d.isMoney]),
        [
          ['ep_1', 'pending', true],
          ['ep_2', 'pending', true],
        ],
      );
      assert.equal(r2.deliveries[0].status, 'skipped');

      const again = await store.events.acceptEvents([
        { ...newEvent('ten_A', 99, ['ep_1'], { eventId: 'e-1', hash: 'h-1' }) },
      ]);
      assert.equal(again[0].kind, 'existing');
      if (again[0].kind === 'existing') {
        assert.equal(again[0].event.id, 'evt_000001');
        assert.deepEqual(
          again[0].deliveries.map((d) => d.id),
          ['dlv_000001_0', 'dlv_000001_1'],
          'no new deliveries',
        );
      }
      const conflict = await store.events.acceptEvents([
        newEvent('ten_A', 98, ['ep_1'], { eventId: 'e-1', hash: 'other' }),
      ]);
      assert.deepEqual(conflict[0], { kind: 'conflict', eventId: 'e-1' });

      const got = await store.events.getEvent('ten_A', 'e-1');
      assert.ok(got);
      assert.deepEqual(got.event.body, bytes);
      assert.equal(got.event.isMoney, true);
      assert.equal(got.deliveries.length, 2);
      assert.equal(got.deliveries[0].eventId, 'e-1');
      assert.equal(got.deliveries[0].eventType, 'thing.happened');
      assert.equal(await store.events.getEvent('ten_B', 'e-1'), null, 'event ids are per tenant');
      const counts = await store.reporting.countByStatus();
      assert.deepEqual(counts, { pending: 2, delivering: 0, held: 0, succeeded: 0, failed: 0, skipped: 1 });
      assert.deepEqual(
        await store.reporting.countQueued(),
        { pending: 2, delivering: 0, held: 0 },
        'terminal deliveries are not queued',
      );
    },
  );

  withStore('listDeliveries filters and pages newest first; getDelivery is tenant-scoped', async (store) => {
    await setup(store);
    await store.events.acceptEvents(
      Array.from({ length: 5 }, (_, i) =>
        newEvent('ten_A', i + 1, ['ep_1', 'ep_2'], { at: T0 + i * S, skipped: i === 4 ? ['ep_2'] : [] }),
      ),
    );
    const all = await store.reporting.listDeliveries({ tenantId: 'ten_A' }, null, 4);
    assert.deepEqual(
      all.items.map((d) => d.id),
      ['dlv_000005_1', 'dlv_000005_0', 'dlv_000004_1', 'dlv_000004_0'],
    );
    const next = await store.reporting.listDeliveries({ tenantId: 'ten_A' }, all.nextCursor, 100);
    assert.equal(next.items.length, 6);
    assert.equal(next.nextCursor, null);
    assert.deepEqual(
      (await store.reporting.listDeliveries({ tenantId: 'ten_A', status: 'skipped' }, null, 10)).items.map((d) => d.id),
      ['dlv_000005_1'],
    );
    assert.equal(
      (await store.reporting.listDeliveries({ tenantId: 'ten_A', endpointId: 'ep_1' }, null, 10)).items.length,
      5,
    );
    assert.equal(
      (await store.reporting.listDeliveries({ tenantId: 'ten_A', eventType: 'other' }, null, 10)).items.length,
      0,
    );
    assert.equal(
      (
        await store.reporting.listDeliveries(
          { tenantId: 'ten_A', eventType: 'thing.happened', since: T0 + S, until: T0 + 2 * S },
          null,
          10,
        )
      ).items.length,
      4,
    );
    assert.deepEqual(
      (await store.reporting.listDeliveries({ tenantId: 'ten_A', eventId: 'e-3' }, null, 10)).items.map((d) => d.id),
      ['dlv_000003_1', 'dlv_000003_0'],
    );
    assert.equal(
      (await store.reporting.listDeliveries({ tenantId: 'ten_A', eventId: 'e-3', endpointId: 'ep_2' }, null, 10)).items
        .length,
      1,
    );
    assert.equal(
      (await store.reporting.listDeliveries({ tenantId: 'ten_A', eventId: 'e-none' }, null, 10)).items.length,
      0,
    );
    assert.equal((await store.reporting.listDeliveries({ tenantId: 'ten_B' }, null, 10)).items.length, 0);
    assert.equal(await store.reporting.getDelivery('ten_B', 'dlv_000001_0'), null);
  });
}
