// Tenant limits on accept through the engine (docs/rules.md#tenant-limits): the payload cap, the daily quota and the
// rate bucket refuse in that order with their codes and Retry-After; repeats are never charged; usage counts the day,
// this minute and the last whole minute's rate, on the engine's clock.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isHooklineError } from '../src/errors.ts';
import { testEngine } from '../testing/harness.ts';
import { H, MIN, S } from '../testing/time.ts';

type T = Awaited<ReturnType<typeof testEngine>>;

/** Accepts events `ids` at once; each answer as 'ok', 'repeat' or `<code> <retryAfterSec>`. */
async function accept(t: T, ids: string[], data: unknown = {}): Promise<string[]> {
  const rs = await t.engine.events.acceptMany(
    t.tenantId,
    ids.map((id) => ({ event_id: id, type: 'a.b', data })),
  );
  return rs.map((r) => {
    if (r instanceof Error) {
      assert.ok(isHooklineError(r), String(r));
      return `${r.code} ${r.retryAfterSec ?? '-'}`;
    }
    return r.kind === 'created' ? 'ok' : 'repeat';
  });
}

test('the payload cap, the daily quota and the rate refuse in that order; repeats pass uncharged', async () => {
  const t = await testEngine();
  try {
    await t.engine.tenants.update(t.tenantId, {
      limits: { events_per_s: 2, events_per_day: 5, max_payload_bytes: 300 },
    });
    // A bucket of two: the third of three at once waits half a second (rounded up to a whole second).
    assert.deepEqual(await accept(t, ['a', 'b', 'c']), ['ok', 'ok', 'tenant_rate_limited 1']);
    // The bucket is kept between accepts: the next one in the same instant finds it empty too.
    assert.deepEqual(await accept(t, ['c']), ['tenant_rate_limited 1']);
    // Repeats of accepted events are answered, not charged nor refused, even with an empty bucket.
    assert.deepEqual(await accept(t, ['a', 'b']), ['repeat', 'repeat']);
    // The payload cap answers first (and for good: no Retry-After).
    assert.deepEqual(await accept(t, ['big'], { pad: 'x'.repeat(400) }), ['payload_too_large -']);
    t.clock.advance(S);
    // One id twice in one accept is one new event.
    assert.deepEqual(await accept(t, ['d', 'd']), ['ok', 'repeat']);
    t.clock.advance(10 * S);
    // 3 of 5 used today: two more, then the quota until the next UTC midnight (12 h from noon, less 11 s).
    assert.deepEqual(await accept(t, ['e', 'f', 'g']), ['ok', 'ok', `tenant_quota_exceeded ${12 * 3600 - 11}`]);
    const usage = await t.engine.tenants.usage(t.tenantId);
    assert.deepEqual([usage.eventsToday, usage.percent], [5, 100]);
    // Midnight: a new day's quota.
    t.clock.set(Date.UTC(2026, 0, 6));
    assert.deepEqual(await accept(t, ['h']), ['ok']);
    assert.deepEqual((await t.engine.tenants.usage(t.tenantId)).eventsToday, 1);
  } finally {
    await t.close();
  }
});

test('usage: this minute so far, the last whole minute as a rate, the day as a percent of its quota', async () => {
  const t = await testEngine();
  try {
    await t.engine.tenants.update(t.tenantId, { limits: { events_per_day: 400 } });
    const usage = async () => {
      const u = await t.engine.tenants.usage(t.tenantId);
      return [u.eventsThisMinute, u.ratePerS, u.eventsToday, u.percent];
    };
    assert.deepEqual(await usage(), [0, 0, 0, 0]);
    // 90 events in the minute from noon.
    await accept(
      t,
      Array.from({ length: 90 }, (_, i) => `m1-${i}`),
    );
    t.clock.advance(30 * S);
    assert.deepEqual(await usage(), [90, 0, 90, 22.5], 'the minute is not over: no rate yet');
    // The next minute: the last whole one had 90 (1.5/s); this one counts from zero.
    t.clock.advance(30 * S);
    assert.deepEqual(await usage(), [0, 1.5, 90, 22.5]);
    // Into the minute (12:01:15): the minute is counted by its start, wherever in it the events come.
    t.clock.advance(15 * S);
    await accept(
      t,
      Array.from({ length: 20 }, (_, i) => `m2-${i}`),
    );
    assert.deepEqual(await usage(), [20, 1.5, 110, 27.5]);
    // A minute later the last whole minute is the one with 20 (0.33/s). An edit that names no limit keeps them all.
    await t.engine.tenants.update(t.tenantId, { name: 'Renamed' });
    await t.engine.tenants.update(t.tenantId, { limits: { max_payload_bytes: 10_000 } });
    assert.deepEqual((await t.engine.tenants.usage(t.tenantId)).own, {
      eventsPerS: null,
      eventsPerDay: 400,
      maxEndpoints: null,
      maxPayloadBytes: 10_000,
    });
    t.clock.advance(MIN);
    assert.deepEqual(await usage(), [0, 0.33, 110, 27.5]);
    // Two minutes without events: no rate.
    t.clock.advance(MIN);
    assert.deepEqual(await usage(), [0, 0, 110, 27.5]);
    // An hour on, a new minute's count starts again from its first event.
    t.clock.advance(H);
    await accept(t, ['late']);
    assert.deepEqual(await usage(), [1, 0, 111, 27.8]);
  } finally {
    await t.close();
  }
});

test('the daily quota is told once at 80 % and once at 100 % through the outbox', async () => {
  const t = await testEngine();
  const told: unknown[] = [];
  t.engine.outbox.handle(async (row) => void told.push([row.kind, row.data.percent, row.data.events_today]));
  const drained = async () => {
    await t.engine.outbox.drainOnce();
    return told.splice(0);
  };
  try {
    await t.engine.tenants.update(t.tenantId, { limits: { events_per_day: 5 } });
    await accept(t, ['a', 'b', 'c']);
    assert.deepEqual(await drained(), []);
    await accept(t, ['d']);
    assert.deepEqual(await drained(), [['quota.warning', 80, 4]]);
    assert.deepEqual(await accept(t, ['e', 'f']), ['ok', `tenant_quota_exceeded ${12 * 3600}`]);
    assert.deepEqual(await drained(), [['quota.reached', 100, 5]]);
    await accept(t, ['g']);
    assert.deepEqual(await drained(), []);
  } finally {
    await t.close();
  }
});

test('the configured defaults apply where a tenant has no limit of its own; its own wins', async () => {
  const t = await testEngine({ tenantLimits: { eventsPerDay: 2, maxEndpoints: 1, maxPayloadBytes: 200 } });
  try {
    const u = await t.engine.tenants.usage(t.tenantId);
    assert.deepEqual(u.limits, { eventsPerS: null, eventsPerDay: 2, maxEndpoints: 1, maxPayloadBytes: 200 });
    assert.deepEqual(u.own, { eventsPerS: null, eventsPerDay: null, maxEndpoints: null, maxPayloadBytes: null });
    assert.deepEqual(await accept(t, ['big'], { pad: 'x'.repeat(300) }), ['payload_too_large -']);
    assert.deepEqual(await accept(t, ['a', 'b', 'c']), ['ok', 'ok', `tenant_quota_exceeded ${12 * 3600}`]);
    await t.engine.tenants.update(t.tenantId, {
      limits: { events_per_day: 3, max_endpoints: 2, max_payload_bytes: 1000 },
    });
    assert.deepEqual(await accept(t, ['c', 'big'], { pad: 'x'.repeat(300) }), ['ok', 'tenant_quota_exceeded 43200']);
    const own = await t.engine.tenants.usage(t.tenantId);
    assert.deepEqual(own.limits, { eventsPerS: null, eventsPerDay: 3, maxEndpoints: 2, maxPayloadBytes: 1000 });
  } finally {
    await t.close();
  }
});
