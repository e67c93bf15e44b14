// Store conformance, engine rules: the engine on this store, with a scripted sender on a virtual clock.
import assert from 'node:assert/strict';
import { VirtualClock } from '../../src/clock.ts';
import type { DeliverySender } from '../../src/dispatch/dispatcher.ts';
import { isHooklineError } from '../../src/errors.ts';
import { createHookline, type Hookline } from '../../src/hookline.ts';
import type { SendResult } from '../../src/http/sender.ts';
import { seededRandom } from '../../src/policy/random.ts';
import type { PolicyRegistry } from '../../src/policy/registry.ts';
import { generateMasterKey } from '../../src/secret-box.ts';
import type { Store } from '../../src/store/store.ts';
import { settle } from '../settle.ts';
import { DAY, MIN, S, T0, tenant, type WithStore } from './fixtures.ts';

const header = (h: Record<string, string>, name: string) =>
  Object.entries(h).find(([k]) => k.toLowerCase() === name)?.[1];

/** A sender scripted by request number and delivery: no sockets, instant (virtual) responses. */
function scriptedSender(respond: (n: number, req: { headers: Record<string, string>; body: Buffer }) => number) {
  const sent: Array<{ headers: Record<string, string>; body: Buffer; status: number }> = [];
  const sender: DeliverySender = {
    async send(req) {
      const status = respond(sent.length + 1, req);
      sent.push({ headers: req.headers, body: req.body, status });
      const ok = status >= 200 && status < 300;
      const result: SendResult & { simulatedDurationMs: number } = {
        outcome: ok ? 'success' : status >= 500 || status === 429 ? 'delivery_failure' : 'client_error',
        status,
        responseHeaders: {},
        bodyExcerpt: ok ? 'ok' : 'nope',
        errorClass: ok ? null : 'status',
        errorMessage: null,
        startedAt: 0,
        durationMs: 0,
        simulatedDurationMs: 0,
      };
      return result;
    },
  };
  return { sender, sent };
}

async function engineOn(
  store: Store,
  respond: (n: number, req: { headers: Record<string, string>; body: Buffer }) => number,
  o: { policies?: PolicyRegistry; tenantId?: string; start?: number } = {},
) {
  const clock = new VirtualClock(o.start ?? T0);
  const { sender, sent } = scriptedSender(respond);
  const policies = o.policies;
  const engine: Hookline = createHookline({
    store,
    clock,
    sender,
    policies,
    masterKey: generateMasterKey(),
    allowHttp: true,
    allowPrivateTargets: true,
    dispatcher: { random: seededRandom(7), logAttempts: false },
    maintenance: { enabled: false },
  });
  const tenantId = o.tenantId ?? 'ten_CONF';
  await store.catalog.createTenant(tenant(tenantId, clock.now()));
  return { engine, clock, sent, tenantId };
}

export function engineRulesConformance(withStore: WithStore): void {
  withStore(
    'payments: 500, 500, 404… walks the fast then the slow ladder (each attempt names its own), failed after the eighth attempt',
    async (store) => {
      const t = await engineOn(store, (n) => (n <= 2 ? 500 : 404));
      await t.engine.endpoints.create(t.tenantId, { url: 'http://127.0.0.1:9/hook', policy: 'payments' });
      const r = await t.engine.events.accept(t.tenantId, { type: 'payment.status_changed', data: { status: 'paid' } });
      await settle(t.engine, t.clock);
      const attempts = await store.reporting.listAttempts(r.deliveries[0].id);
      assert.deepEqual(
        attempts.map((a) => a.startedAt - T0),
        [0, S, 3 * S, 3 * S + 15 * MIN, 3 * S + 75 * MIN, 3 * S + 315 * MIN, 3 * S + 1035 * MIN, 3 * S + 2475 * MIN],
      );
      // Each attempt names the ladder that scheduled it: the first and the 500s' retries fast, after the money
      // event's 404 (the third attempt) slow (docs/rules.md#payments-slow).
      assert.deepEqual(
        attempts.map((a) => a.ladder),
        ['fast', 'fast', 'fast', 'slow', 'slow', 'slow', 'slow', 'slow'],
      );
      const d = await store.reporting.getDelivery(t.tenantId, r.deliveries[0].id);
      assert.deepEqual([d?.status, d?.attemptCount], ['failed', 8]);
      await t.engine.stop();
    },
  );

  withStore(
    'standard fails after 8 attempts; brief after 4; strict fails a 404 at once; every attempt sends the same bytes',
    async (store) => {
      const t = await engineOn(store, () => 500);
      const eps: Record<string, string> = {};
      for (const policy of ['standard', 'brief'])
        eps[policy] = (
          await t.engine.endpoints.create(t.tenantId, {
            url: 'http://127.0.0.1:9/hook',
            policy,
            event_types: [`${policy}.*`],
          })
        ).endpoint.id;
      const a = await t.engine.events.accept(t.tenantId, { type: 'standard.x', data: {} });
      const b = await t.engine.events.accept(t.tenantId, { type: 'brief.x', data: {} });
      await settle(t.engine, t.clock);
      assert.equal((await store.reporting.getDelivery(t.tenantId, a.deliveries[0].id))?.attemptCount, 8);
      assert.equal((await store.reporting.getDelivery(t.tenantId, b.deliveries[0].id))?.attemptCount, 4);
      assert.equal(
        new Set(
          t.sent
            .filter((s) => header(s.headers, 'x-webhook-delivery') === a.deliveries[0].id)
            .map((s) => s.body.toString('hex')),
        ).size,
        1,
      );
      await t.engine.stop();

      const s = await engineOn(store, () => 404, { tenantId: 'ten_S', start: t.clock.now() });
      const strict = await s.engine.endpoints.create('ten_S', { url: 'http://127.0.0.1:9/hook', policy: 'strict' });
      const c = await s.engine.events.accept('ten_S', { type: 'x', data: {} });
      await settle(s.engine, s.clock);
      const d = await store.reporting.getDelivery('ten_S', c.deliveries[0].id);
      assert.deepEqual([d?.status, d?.attemptCount, d?.endpointId], ['failed', 1, strict.endpoint.id]);
      await s.engine.stop();
    },
  );

  withStore(
    'idempotent ingest: same event id and body returns the event; another body is a 409 conflict',
    async (store) => {
      const t = await engineOn(store, () => 200);
      await t.engine.endpoints.create(t.tenantId, { url: 'http://127.0.0.1:9/hook' });
      const first = await t.engine.events.accept(t.tenantId, { event_id: 'ord-1', type: 'order.paid', data: { a: 1 } });
      const again = await t.engine.events.accept(t.tenantId, { event_id: 'ord-1', type: 'order.paid', data: { a: 1 } });
      assert.equal(first.kind, 'created');
      assert.equal(again.kind, 'existing');
      assert.deepEqual(
        again.deliveries.map((d) => d.id),
        first.deliveries.map((d) => d.id),
      );
      await assert.rejects(
        t.engine.events.accept(t.tenantId, { event_id: 'ord-1', type: 'order.paid', data: { a: 2 } }),
        (err) => isHooklineError(err) && err.code === 'event_conflict',
      );
      const many = await t.engine.events.acceptMany(t.tenantId, [
        { event_id: 'ord-2', type: 'x', data: {} },
        { event_id: 'ord-1', type: 'order.paid', data: { a: 3 } },
      ]);
      assert.ok(!(many[0] instanceof Error));
      assert.ok(isHooklineError(many[1]));
      await settle(t.engine, t.clock);
      assert.equal(t.sent.length, 2, 'one delivery per accepted event');
      await t.engine.stop();
    },
  );

  withStore(
    'replay: a window replay of failed deliveries succeeds once; paused endpoints refuse; daily quota',
    async (store) => {
      let healthy = false;
      const t = await engineOn(store, () => (healthy ? 200 : 400));
      const { endpoint: ep } = await t.engine.endpoints.create(t.tenantId, {
        url: 'http://127.0.0.1:9/hook',
        policy: 'strict',
      });
      for (let i = 0; i < 3; i++) await t.engine.events.accept(t.tenantId, { type: 'x', data: { i } });
      await settle(t.engine, t.clock);
      assert.equal((await store.reporting.countByStatus()).failed, 3);
      healthy = true;
      t.clock.advance(MIN);
      const rp = await t.engine.replays.window(t.tenantId, ep.id);
      assert.equal(rp.selected, 3);
      await settle(t.engine, t.clock);
      assert.deepEqual(
        await store.replays.getReplay(t.tenantId, rp.id).then((r) => [r?.attempted, r?.succeeded, r?.failed]),
        [3, 3, 0],
      );
      assert.equal((await store.reporting.countByStatus()).succeeded, 3);
      assert.equal(
        (await t.engine.replays.window(t.tenantId, ep.id)).selected,
        0,
        'succeeded deliveries are never selected',
      );
      await t.engine.endpoints.update(t.tenantId, ep.id, { status: 'paused' });
      await assert.rejects(
        t.engine.replays.window(t.tenantId, ep.id),
        (err) => isHooklineError(err) && err.code === 'endpoint_paused',
      );
      await t.engine.endpoints.update(t.tenantId, ep.id, { status: 'active' });
      for (let i = 0; i < 25; i++) assert.equal((await t.engine.replays.window(t.tenantId, ep.id)).selected, 0);
      // Only replays that select something use the daily quota: 19 more of those, then the 21st is refused.
      healthy = false;
      for (let i = 0; i < 19; i++) {
        await t.engine.events.accept(t.tenantId, { type: 'x', data: { again: i } });
        await settle(t.engine, t.clock);
        assert.equal(
          (await t.engine.replays.window(t.tenantId, ep.id)).selected,
          i + 1,
          'every failed delivery of the window, replayed and failed again',
        );
        await settle(t.engine, t.clock);
      }
      await t.engine.events.accept(t.tenantId, { type: 'x', data: { over: true } });
      await settle(t.engine, t.clock);
      const now = t.clock.now();
      const toMidnight = Math.ceil((DAY - (now % DAY)) / 1000);
      await assert.rejects(
        t.engine.replays.window(t.tenantId, ep.id),
        (err) => isHooklineError(err) && err.code === 'replay_quota_exceeded' && err.retryAfterSec === toMidnight,
      );
      t.clock.advance(toMidnight * 1000);
      assert.equal((await t.engine.replays.window(t.tenantId, ep.id)).selected, 20, 'the quota resets at UTC midnight');
      await t.engine.stop();
    },
  );

  withStore(
    'health: brief suspends after 50 consecutive failed events; new events are skipped until reactivated',
    async (store) => {
      const t = await engineOn(store, () => 500);
      const { endpoint: ep } = await t.engine.endpoints.create(t.tenantId, {
        url: 'http://127.0.0.1:9/hook',
        policy: 'brief',
      });
      const transitions: string[] = [];
      t.engine.addObserver({ health: (x) => transitions.push(`${x.from}->${x.to}:${x.reason}`) });
      for (let i = 0; i < 50; i++) await t.engine.events.accept(t.tenantId, { type: 'x', data: { i } });
      await settle(t.engine, t.clock);
      const after = await store.catalog.getEndpoint(t.tenantId, ep.id);
      assert.deepEqual([after?.status, after?.pauseReason], ['paused', 'consecutive_failures']);
      assert.deepEqual(transitions, ['active->degraded:failing', 'degraded->paused:consecutive_failures']);
      t.clock.advance(S);
      const late = await t.engine.events.accept(t.tenantId, { type: 'x', data: {} });
      assert.equal(late.deliveries[0].status, 'skipped');
      await t.engine.stop();
    },
  );

  withStore(
    'breaker (payments, tenant scope): opens on failures, holds without spending attempts, one probe closes it',
    async (store) => {
      let down = true;
      const t = await engineOn(store, () => (down ? 503 : 200));
      await t.engine.endpoints.create(t.tenantId, { url: 'http://127.0.0.1:9/hook', policy: 'payments' });
      for (let i = 0; i < 8; i++) await t.engine.events.accept(t.tenantId, { type: 'refund.failed', data: { i } });
      await t.engine.runDue();
      const row = await store.breakers.getBreaker(`tenant:${t.tenantId}`);
      assert.equal(row?.state, 'open', 'eight 503s in the window open the tenant breaker');
      t.clock.advance(S);
      await t.engine.runDue();
      const counts = await store.reporting.countByStatus();
      assert.ok(counts.held > 0, 'due deliveries wait as held');
      const transitions: string[] = [];
      t.engine.addObserver({ breaker: (x) => transitions.push(`${x.from}>${x.to}`) });
      down = false;
      await settle(t.engine, t.clock, { until: T0 + 10 * MIN });
      assert.deepEqual(transitions, ['open>probing', 'probing>closed'], 'one probe cycle, and it closed the breaker');
      const deliveries = (await store.reporting.listDeliveries({ tenantId: t.tenantId }, null, 100)).items;
      const probes = (await Promise.all(deliveries.map((d) => store.reporting.listAttempts(d.id))))
        .flat()
        .filter((a) => a.trigger === 'probe');
      assert.deepEqual(
        probes.map((a) => a.outcome),
        ['success'],
        'exactly one probe was sent, and it succeeded',
      );
      assert.equal((await store.breakers.getBreaker(`tenant:${t.tenantId}`))?.state, 'closed');
      await settle(t.engine, t.clock);
      assert.equal((await store.reporting.countByStatus()).succeeded, 8);
      await t.engine.stop();
    },
  );
}
