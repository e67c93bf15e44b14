// Conformance: the audit part — an audited write and its entry commit together (or neither), the diff is redacted,
// the chain links every entry to the one before, listing filters, and retention moves the checkpoint.
import assert from 'node:assert/strict';
import { firstBreak } from '../../src/audit/audit-chain.ts';
import type { Actor, AuditDraft } from '../../src/audit/audit-types.ts';
import { endpoint, secret, T0, tenant, type WithStore } from './fixtures.ts';

const admin: Actor = { kind: 'admin', id: 'admin', ip: '127.0.0.1', userAgent: 'test', requestId: 'req_1' };
const draft = (action: string, type: AuditDraft['target']['type'], id: string, tenantId: string | null, at = T0) => ({
  at,
  actor: admin,
  action,
  target: { type, id, tenantId },
});

export function auditConformance(withStore: WithStore): void {
  withStore(
    'an audited write commits with its entry: the changed columns before → after, secrets redacted',
    async (store) => {
      await store.audit.audited(draft('tenant.create', 'tenant', 'ten_a', 'ten_a'), 'createTenant', [tenant('ten_a')]);
      const ep = endpoint('ep_a', 'ten_a', { customHeaders: { 'X-Api-Token': 'very-secret' } });
      await store.audit.audited(draft('endpoint.create', 'endpoint', 'ep_a', 'ten_a'), 'createEndpoint', [
        ep,
        secret('k1', 'ep_a'),
      ]);
      await store.audit.audited(draft('endpoint.update', 'endpoint', 'ep_a', 'ten_a', T0 + 1), 'updateEndpoint', [
        'ten_a',
        'ep_a',
        { url: 'https://example.test/new', customHeaders: { 'X-Api-Token': 'other-secret' } },
        T0 + 1,
      ]);
      const { items } = await store.audit.listAudit({}, null, 10);
      assert.deepEqual(
        items.map((e) => [e.seq, e.action]),
        [
          [3, 'endpoint.update'],
          [2, 'endpoint.create'],
          [1, 'tenant.create'],
        ],
      );
      const update = items[0];
      assert.deepEqual(update.changes.url, { before: 'https://example.test/ep_a', after: 'https://example.test/new' });
      assert.deepEqual(update.changes.custom_headers, {
        before: { 'X-Api-Token': '[redacted]' },
        after: { 'X-Api-Token': '[redacted]' },
      });
      assert.equal(update.changes.description, undefined, 'an unchanged column is not in the diff');
      assert.deepEqual(update.actor, admin);
      assert.equal(update.target.tenantId, 'ten_a');
      const text = JSON.stringify(items);
      assert.ok(!text.includes('very-secret') && !text.includes('other-secret'), 'no header value is written');
      assert.equal(items[2].changes.name.after, 'Tenant ten_a');
    },
  );

  withStore('a write that finds nothing records nothing; one that throws rolls back its entry too', async (store) => {
    assert.equal(
      await store.audit.audited(draft('tenant.delete', 'tenant', 'ten_x', 'ten_x'), 'deleteTenant', ['ten_x']),
      false,
    );
    await store.audit.audited(draft('tenant.create', 'tenant', 'ten_a', 'ten_a'), 'createTenant', [tenant('ten_a')]);
    await assert.rejects(
      store.audit.audited(draft('tenant.create', 'tenant', 'ten_a', 'ten_a'), 'createTenant', [tenant('ten_a')]),
    );
    const { items } = await store.audit.listAudit({}, null, 10);
    assert.deepEqual(
      items.map((e) => e.action),
      ['tenant.create'],
    );
    const bounds = await store.audit.auditBounds();
    assert.equal(bounds.head.seq, 1);
  });

  withStore(
    'the chain links each entry to the one before; listing filters by tenant, action and time',
    async (store) => {
      for (const id of ['ten_a', 'ten_b'])
        await store.audit.audited(draft('tenant.create', 'tenant', id, id), 'createTenant', [tenant(id)]);
      await store.audit.appendAudit(draft('console.sign_in', 'console_session', 'x', 'ten_b', T0 + 5));
      const chain = await store.audit.auditChain(0, 100);
      assert.deepEqual(
        chain.map((e) => e.seq),
        [1, 2, 3],
      );
      assert.equal(chain[0].prevHash, '');
      assert.equal(chain[1].prevHash, chain[0].hash);
      assert.equal(firstBreak({ seq: 0, hash: '' }, chain), null);
      assert.deepEqual(
        (await store.audit.listAudit({ tenantId: 'ten_b' }, null, 10)).items.map((e) => e.seq),
        [3, 2],
      );
      assert.deepEqual(
        (await store.audit.listAudit({ action: 'console.sign_in' }, null, 10)).items.map((e) => e.seq),
        [3],
      );
      assert.deepEqual(
        (await store.audit.listAudit({ since: T0 + 1 }, null, 10)).items.map((e) => e.seq),
        [3],
      );
      const first = await store.audit.listAudit({}, null, 2);
      assert.equal(first.nextCursor, '2');
      assert.deepEqual(
        (await store.audit.listAudit({}, first.nextCursor, 2)).items.map((e) => e.seq),
        [1],
      );
    },
  );

  withStore(
    'retention deletes the oldest entries and moves the checkpoint onto the last one deleted',
    async (store) => {
      for (let i = 0; i < 5; i++)
        await store.audit.appendAudit(draft('console.sign_in', 'console_session', `s${i}`, null, T0 + i));
      const chain = await store.audit.auditChain(0, 100);
      assert.equal(await store.audit.purgeAudit(T0 + 3, 2), 2);
      assert.equal(await store.audit.purgeAudit(T0 + 3, 2), 1);
      assert.equal(await store.audit.purgeAudit(T0 + 3, 2), 0);
      const { checkpoint, head } = await store.audit.auditBounds();
      assert.deepEqual(checkpoint, { seq: 3, hash: chain[2].hash });
      assert.deepEqual(head, { seq: 5, hash: chain[4].hash });
      const kept = await store.audit.auditChain(checkpoint.seq, 100);
      assert.deepEqual(
        kept.map((e) => e.seq),
        [4, 5],
      );
      assert.equal(firstBreak(checkpoint, kept), null, 'the kept chain verifies from the checkpoint');
      const next = await store.audit.appendAudit(draft('console.sign_in', 'console_session', 's5', null, T0 + 9));
      assert.equal(next.seq, 6);
      assert.equal(next.prevHash, chain[4].hash);
    },
  );
}
