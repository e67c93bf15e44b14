// Adaptive concurrency (docs/rules.md#adaptive-concurrency) against a loopback receiver that answers 503 whenever
// more than 5 requests are in flight: after a short learning period Hookline settles at ≤ 6 in flight with ≥ 95 % of
// attempts succeeding, where a fixed cap of 20 fails most of them. Time rules run on the injected clock; requests
// overlap in real time because the dispatcher starts a lane's sends together.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PolicyRegistry } from '../src/policy/registry.ts';
import { until } from '../testing/deadline.ts';
import { testEngine } from '../testing/harness.ts';
import { startReceiver } from '../testing/receiver.ts';
import { settle } from '../testing/settle.ts';

const DELIVERIES = 400;
const OVERLOAD_ABOVE = 5;
/**
 * Retries without jitter, so a wave's failures come back together: the load stays as concurrent as the first wave
 * (with jitter each retry would arrive alone on the virtual clock and succeed, whatever the cap).
 */
const POLICIES = [
  { name: 'waves', extends: 'standard', jitter: 0, fast: { delays: ['5s'], repeatLast: true, maxFailures: 30 } },
];
/** Attempts before the measure starts: the learning period. */
const LEARNING = 100;

interface Outcome {
  /** In flight at the receiver when each attempt arrived (itself included), and whether it succeeded: in arrival order. */
  inFlight: number[];
  ok: boolean[];
  finalEffective: number | null;
  changes: number[];
}

async function run(adaptive: boolean): Promise<Outcome> {
  const t = await testEngine({
    policies: PolicyRegistry.fromConfig(POLICIES),
    dispatcher: { adaptiveConcurrency: adaptive },
  });
  let active = 0;
  const inFlight: number[] = [];
  const ok: boolean[] = [];
  const rx = await startReceiver(async () => {
    active++;
    const i = inFlight.push(active) - 1;
    if (active > OVERLOAD_ABOVE) {
      // An overloaded server answers fast, not instantly: its refusals are in flight too.
      await new Promise((r) => setTimeout(r, 10));
      active--;
      ok[i] = false;
      return 503;
    }
    // Long enough for the requests a lane starts together to overlap, whatever the machine's load.
    await new Promise((r) => setTimeout(r, 40));
    active--;
    ok[i] = true;
    return 200;
  });
  const changes: number[] = [];
  t.engine.addObserver({ concurrency: (e) => void changes.push(e.effective) });
  try {
    const { endpoint } = await t.engine.endpoints.create(t.tenantId, {
      url: rx.url,
      max_concurrency: 20,
      policy: 'waves',
    });
    for (let i = 0; i < DELIVERIES; i += 100)
      await t.engine.events.acceptMany(
        t.tenantId,
        Array.from({ length: 100 }, (_, j) => ({ type: 'a.b', data: { i: i + j } })),
      );
    await settle(t.engine, t.clock);
    assert.deepEqual(await t.store.reporting.countQueued(), { pending: 0, delivering: 0, held: 0 });
    let finalEffective: number | null = null;
    if (adaptive) {
      // The learned value is written in the background; the API reads it from the store.
      const ep = await until(
        () => t.engine.endpoints.get(t.tenantId, endpoint.id),
        (e) => (e.effectiveConcurrency ?? null) === changes.at(-1),
        { what: 'the learned concurrency to be saved' },
      );
      finalEffective = ep.effectiveConcurrency ?? null;
    }
    return { inFlight, ok, finalEffective, changes };
  } finally {
    await rx.close();
    await t.close();
  }
}

const rate = (xs: boolean[]) => xs.filter(Boolean).length / xs.length;

test(`a receiver that answers 503 above ${OVERLOAD_ABOVE} in flight: adaptive settles at ≤ 6 with ≥ 95 % success; a fixed cap of 20 fails most`, async () => {
  const adaptive = await run(true);
  const fixed = await run(false);
  const settledIn = adaptive.inFlight.slice(LEARNING);
  const settledOk = adaptive.ok.slice(LEARNING);
  const report = {
    adaptive: {
      attempts: adaptive.ok.length,
      success: rate(adaptive.ok),
      settledSuccess: rate(settledOk),
      settledMaxInFlight: Math.max(...settledIn),
      finalEffective: adaptive.finalEffective,
      firstChanges: adaptive.changes.slice(0, 8),
    },
    fixed: {
      attempts: fixed.ok.length,
      success: rate(fixed.ok),
      settledSuccess: rate(fixed.ok.slice(LEARNING)),
      maxInFlight: Math.max(...fixed.inFlight),
    },
  };
  console.log(`# ${JSON.stringify(report)}`);
  assert.ok(Math.max(...settledIn) <= 6, `settled in flight ${Math.max(...settledIn)}`);
  assert.ok(rate(settledOk) >= 0.95, `settled success ${rate(settledOk)}`);
  assert.ok(adaptive.finalEffective !== null && adaptive.finalEffective <= 6, `learned ${adaptive.finalEffective}`);
  assert.ok(rate(fixed.ok) < 0.5, `fixed cap success ${rate(fixed.ok)}`);
  assert.ok(Math.max(...fixed.inFlight) > 6);
});
