// Who the audit log names, at the engine (docs/audit.md#an-entry): every write operation that takes an actor records
// that actor, with its address, user agent and request id, on each of its paths — an edit, an egress-only edit, a
// pause, the catch-up reactivation, labels, replays, retries — and never the engine's own `system`.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Actor } from '../src/audit/audit-types.ts';
import { testEngine } from '../testing/harness.ts';
import { startReceiver } from '../testing/receiver.ts';

const ACTOR: Required<Actor> = {
  kind: 'api_key',
  id: 'key_ACTOR',
  ip: '10.1.2.3',
  userAgent: 'audit-actors/1',
  requestId: 'req_actor',
};

test('each write operation and each of its variants records the caller as the actor', async () => {
  const t = await testEngine();
  // 503 for pend-* (left pending), 400 for fail-*, 200 otherwise.
  const rx = await startReceiver(
    (_n, req) => (req.body.includes('"pend-') ? 503 : req.body.includes('"fail-') ? 400 : 200),
    { clock: t.clock },
  );
  const actions: string[] = [];
  /** Runs `write`, then checks that the entries it added carry ACTOR; returns what the write returned. */
  async function by<T>(what: string, write: () => Promise<T>): Promise<T> {
    const before = (await t.engine.audit.list({}, null, 1)).items[0]?.seq ?? 0;
    const out = await write();
    const added = (await t.engine.audit.list({}, null, 50)).items.filter((e) => e.seq > before);
    assert.ok(added.length > 0, `${what} left no entry`);
    for (const e of added) assert.deepEqual(e.actor, ACTOR, `${what}: ${e.action}`);
    actions.push(...added.map((e) => e.action).reverse());
    return out;
  }
  try {
    const e = t.engine;
    const tenant = await by('tenant create', () => e.tenants.create({ name: 'A' }, ACTOR));
    const ten = tenant.id;
    await by('tenant update', () => e.tenants.update(ten, { name: 'B' }, ACTOR));
    await by('tenant limits', () => e.tenants.update(ten, { limits: { max_endpoints: 5 } }, ACTOR));
    await by('tenant labels', () =>
      e.tenants.setLabels(
        ten,
        { uid: 'app-a', metadata: { a: '1' }, payloadFormat: 'envelope', appRateLimit: null },
        ACTOR,
      ),
    );
    const key = await by('key create', () =>
      e.apiKeys.create(ten, { name: 'k', hash: 'h'.repeat(64), prefix: 'hl_x' }, ACTOR),
    );
    await by('key revoke', () => e.apiKeys.revoke(ten, key.id, ACTOR));
    const { endpoint } = await by('endpoint create', () =>
      e.endpoints.create(ten, { url: rx.url, proxy: 'none' }, ACTOR),
    );
    const ep = endpoint.id;
    await by('endpoint edit', () => e.endpoints.update(ten, ep, { description: 'd' }, ACTOR));
    await by('egress-only edit', () => e.endpoints.update(ten, ep, { proxy: null }, ACTOR));
    await by('endpoint labels', () =>
      e.endpoints.setLabels(ten, ep, { uid: 'ep-a', metadata: {}, channels: null }, ACTOR),
    );
    await by('secret rotate', () => e.endpointSecrets.rotate(ten, ep, 60_000, ACTOR));
    await by('test send', () => e.endpoints.test(ten, ep, ACTOR));
    await by('pause', () => e.endpoints.update(ten, ep, { status: 'paused' }, ACTOR));
    await by('catch-up reactivation', () =>
      e.endpoints.reactivate(ten, ep, { status: 'active', catch_up: true }, ACTOR),
    );
    await by('window replay', () => e.replays.window(ten, ep, {}, ACTOR));
    await by('breaker reset', () => e.breakers.reset({ tenantId: ten }, ACTOR));
    const sent = await e.events.accept(ten, { event_id: 'pend-1', type: 'a.b', data: {} });
    await e.runDue();
    await by('delivery retry', () => e.deliveries.retry(ten, sent.deliveries[0].id, ACTOR));
    await by('endpoint retry', () => e.endpoints.retry(ten, ep, ACTOR));
    // strict: the 400 fails the delivery at once, which a replay can then send again.
    const strict = (await e.endpoints.create(ten, { url: rx.url, policy: 'strict', event_types: ['f.x'] })).endpoint;
    const failed = await e.events.accept(ten, { event_id: 'fail-1', type: 'f.x', data: {} });
    await e.runDue();
    await by('delivery replay', () =>
      e.replays.delivery(ten, failed.deliveries.find((d) => d.endpointId === strict.id)!.id, ACTOR),
    );
    await by('event type', () =>
      e.eventTypes.put({ name: 'a.b', description: '', definition: {}, updatedAt: t.clock.now() }, ACTOR),
    );
    await by('sign-in', () =>
      e.audit.record(ACTOR, {
        action: 'console.sign_in',
        target: { type: 'console_session', id: null, tenantId: ten },
      }),
    );
    await by('endpoint delete', () => e.endpoints.delete(ten, ep, ACTOR));
    await by('tenant delete', () => e.tenants.delete(ten, ACTOR));
    assert.ok(actions.includes('endpoint.reactivate'), actions.join(', '));
    assert.equal((await e.audit.verify()).ok, true);
  } finally {
    await rx.close();
    await t.close();
  }
});
