// engine.simulations (the console's policy preview, POST /v1/simulate): the engine's own timeline on a virtual clock
// in a throwaway store, bounded input, at most SIMULATION_MAX_RUNNING at once; the engine's own store is untouched.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isHooklineError, PolicyRegistry, SIMULATION_MAX_RUNNING } from '@hookline/core';
import { testEngine } from '@hookline/core/testing';

test("a preview runs the policy against the script and leaves the engine's store as it was", async (t) => {
  const h = await testEngine();
  t.after(() => h.close());
  const before = await h.store.reporting.listDeliveries({ tenantId: h.tenantId }, null, 10);
  const r = await h.engine.simulations.preview({ policy: 'strict', responses: ['timeout', 503, 200] });
  assert.deepEqual(
    r.attempts.map((a) => a.response),
    ['timeout', '503', '200'],
  );
  assert.equal(r.final.status, 'succeeded');
  assert.equal(
    r.attempts[1].atMs > r.attempts[0].atMs + r.attempts[0].durationMs,
    true,
    'the retry waits after the timeout',
  );
  assert.deepEqual(await h.store.reporting.listDeliveries({ tenantId: h.tenantId }, null, 10), before);
  const shape = (x: typeof r) => x.attempts.map((a) => [a.n, a.atMs, a.durationMs, a.ladder, a.response, a.outcome]);
  assert.deepEqual(
    shape(await h.engine.simulations.preview({ policy: 'strict', responses: ['timeout', 503, 200] })),
    shape(r),
    'the same seed, the same timeline',
  );
});

test('a configured policy can be previewed and is listed after the presets', async (t) => {
  const policies = PolicyRegistry.fromConfig([
    { name: 'quick', extends: 'strict', jitter: 0, fast: { delays: ['1s'] } },
  ]);
  const h = await testEngine({ policies });
  t.after(() => h.close());
  assert.deepEqual(
    h.engine.simulations.policies().map((p) => [p.name, p.preset]),
    [
      ['payments', true],
      ['standard', true],
      ['brief', true],
      ['strict', true],
      ['quick', false],
    ],
  );
  const r = await h.engine.simulations.preview({ policy: 'quick', responses: [500] });
  assert.deepEqual(
    r.attempts.map((a) => a.atMs),
    [0, 1000],
  );
  assert.equal(r.final.status, 'failed');
});

test(`more than ${SIMULATION_MAX_RUNNING} previews at once: the next is refused with simulation_busy, not queued`, async (t) => {
  const h = await testEngine();
  t.after(() => h.close());
  const running = Array.from({ length: SIMULATION_MAX_RUNNING }, () =>
    h.engine.simulations.preview({ policy: 'brief', responses: [500] }),
  );
  await assert.rejects(
    h.engine.simulations.preview({ policy: 'brief', responses: [500] }),
    (err) => isHooklineError(err) && err.code === 'simulation_busy',
  );
  for (const r of await Promise.all(running)) assert.equal(r.final.status, 'failed');
  assert.equal(
    (await h.engine.simulations.preview({ policy: 'brief', responses: [200] })).final.status,
    'succeeded',
    'free again once they ended',
  );
});

test('bad input is refused with catalog codes before anything runs', async (t) => {
  const h = await testEngine();
  t.after(() => h.close());
  const cases: Array<[Parameters<typeof h.engine.simulations.preview>[0], string]> = [
    [{ policy: 'nope', responses: [200] }, 'unknown_policy'],
    [{ policy: 'brief', responses: [] }, 'invalid_request'],
    [{ policy: 'brief', responses: Array(51).fill(500) }, 'invalid_request'],
    [{ policy: 'brief', responses: ['600'] }, 'invalid_request'],
  ];
  for (const [input, code] of cases)
    await assert.rejects(
      h.engine.simulations.preview(input),
      (err) => isHooklineError(err) && err.code === code,
      JSON.stringify(input),
    );
});
