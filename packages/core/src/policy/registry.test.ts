import assert from 'node:assert/strict';
import { test } from 'node:test';
import { H, MIN, S } from '../../testing/time.ts';
import { PolicyConfigError } from './config-error.ts';
import { decide, startProgress } from './decide.ts';
import { PAYMENTS, STANDARD, STRICT } from './presets.ts';
import { definePolicies, PolicyRegistry } from './registry.ts';

function throwsAt(json: unknown, message: string): void {
  assert.throws(
    () => definePolicies(json),
    (err: unknown) => {
      assert.ok(err instanceof PolicyConfigError, `expected PolicyConfigError, got ${String(err)}`);
      assert.ok(err.message.startsWith(message), `"${err.message}" should start with "${message}"`);
      return true;
    },
  );
}

test('the registry knows the presets and the default', () => {
  const registry = new PolicyRegistry();
  assert.deepEqual(registry.names(), ['payments', 'standard', 'brief', 'strict']);
  assert.equal(registry.get('payments'), PAYMENTS);
  assert.equal(registry.get('nope'), undefined);
  assert.equal(registry.get('toString'), undefined);
  assert.equal(registry.has('strict'), true);
  assert.equal(registry.default(), STANDARD);
});

test('the example from the brief defines a policy over standard', () => {
  const registry = PolicyRegistry.fromConfig([
    {
      name: 'mine',
      extends: 'standard',
      timeout: '5s',
      fast: { delays: ['10s', '1m'], maxFailures: 3 },
      jitter: 0.1,
      clientErrors: 'fail',
    },
  ]);
  assert.deepEqual(registry.names(), ['payments', 'standard', 'brief', 'strict', 'mine']);
  const mine = registry.get('mine')!;
  assert.deepEqual(mine, {
    name: 'mine',
    timeoutMs: 5 * S,
    maxConcurrency: 20,
    jitter: 0.1,
    fast: { delaysMs: [10 * S, MIN], maxFailures: 3 },
    clientErrors: 'fail',
    retryAfter: STANDARD.retryAfter,
    health: STANDARD.health,
  });
  assert.ok(Object.isFrozen(mine) && Object.isFrozen(mine.fast.delaysMs));
  const step = decide(mine, startProgress(0, false), { outcome: 'client_error', status: 404 }, 0);
  assert.equal(step.kind, 'fail');
});

test('without extends a policy builds on standard; durations may be ms numbers', () => {
  const [p] = definePolicies([{ name: 'quick', fast: { delays: [1000, '2s'] }, timeout: 2500 }]);
  assert.equal(p.timeoutMs, 2500);
  assert.deepEqual(p.fast.delaysMs, [1000, 2000]);
  assert.equal(p.jitter, STANDARD.jitter);
  assert.equal(p.health.pauseAfterFailingMs, STANDARD.health.pauseAfterFailingMs);
});

test('a policy may extend an earlier user policy; a given ladder replaces the inherited one whole', () => {
  const [a, b] = definePolicies([
    { name: 'a', extends: 'payments', slow: { delays: ['1h', '2h'], window: '12h' } },
    { name: 'b', extends: 'a', maxAge: '7d', breaker: { scope: 'endpoint' }, retryAfter: { max: '1m' } },
  ]);
  assert.deepEqual(a.slow, { delaysMs: [H, 2 * H], windowMs: 12 * H });
  assert.deepEqual(a.fast, PAYMENTS.fast);
  assert.equal(b.maxAgeMs, 7 * 24 * H);
  assert.deepEqual(b.breaker, { ...PAYMENTS.breaker, scope: 'endpoint' });
  assert.deepEqual(b.retryAfter, { honour: true, maxMs: MIN });
  assert.deepEqual(b.slow, a.slow);
});

test('null removes an optional part; true turns the breaker on with the docs/rules.md#breaker-scope numbers', () => {
  const [p, q] = definePolicies([
    { name: 'p', extends: 'payments', slow: null, clientErrors: 'fail', maxAge: null, breaker: null },
    { name: 'q', breaker: true, health: { pauseAfterFailing: null, suspendAfterConsecutiveFailedEvents: 10 } },
  ]);
  assert.equal(p.slow, undefined);
  assert.equal(p.maxAgeMs, undefined);
  assert.equal(p.breaker, undefined);
  assert.ok(!('slow' in p) && !('maxAgeMs' in p) && !('breaker' in p));
  assert.deepEqual(q.breaker, PAYMENTS.breaker);
  assert.deepEqual(q.health, { suspendAfterConsecutiveFailedEvents: 10, pauseOnGone: true });
});

test('absent config means no user policies', () => {
  assert.deepEqual(definePolicies(undefined), []);
  assert.deepEqual(definePolicies(null), []);
});

test('validation names the path and says what is valid', () => {
  throwsAt({}, 'policies: must be an array');
  throwsAt(['x'], 'policies[0]: must be an object');
  throwsAt([{}], 'policies[0].name: must be a lowercase name');
  throwsAt([{ name: 'Mine' }], 'policies[0].name: must be a lowercase name');
  throwsAt([{ name: 'payments' }], 'policies[0].name: "payments" is a preset');
  throwsAt([{ name: 'a' }, { name: 'a' }], 'policies[1].name: "a" is defined twice');
  throwsAt([{ name: 'a', extends: 'nope' }], 'policies[0].extends: unknown policy "nope"');
  throwsAt([{ name: 'a', extends: 'b' }, { name: 'b' }], 'policies[0].extends: unknown policy "b"');
  throwsAt(
    [{ name: 'a', timeoutMs: 5000 }],
    'policies[0].timeoutMs: unknown key; expected one of name, extends, timeout',
  );
  throwsAt([{ name: 'a', timeout: '5' }], "policies[0].timeout: duration '5' has no unit");
  throwsAt([{ name: 'a', timeout: '0s' }], 'policies[0].timeout: must be more than zero');
  throwsAt([{ name: 'a', timeout: '10m' }], 'policies[0].timeout: must be at most 5m');
  throwsAt([{ name: 'a', maxConcurrency: 0 }], 'policies[0].maxConcurrency: must be a whole number from 1 to 1000');
  throwsAt([{ name: 'a', maxConcurrency: 2.5 }], 'policies[0].maxConcurrency: must be a whole number');
  throwsAt([{ name: 'a', jitter: 1 }], 'policies[0].jitter: must be a fraction from 0 up to (not including) 1');
  throwsAt([{ name: 'a', jitter: '0.2' }], 'policies[0].jitter: must be a fraction');
  throwsAt(
    [{ name: 'a', clientErrors: 'ignore' }],
    'policies[0].clientErrors: must be one of "retry", "fail", "slow_for_money"',
  );
  throwsAt([{ name: 'a', fast: { maxFailures: 3 } }], 'policies[0].fast.delays: is required');
  throwsAt([{ name: 'a', fast: { delays: [] } }], 'policies[0].fast.delays: is required');
  throwsAt(
    [{ name: 'a', fast: { delays: ['10s', 'soon'] } }],
    "policies[0].fast.delays[1]: duration 'soon' is not valid",
  );
  throwsAt([{ name: 'a', fast: { delays: ['0s'] } }], 'policies[0].fast.delays[0]: must be more than zero');
  throwsAt([{ name: 'a', fast: { delays: ['60d'] } }], 'policies[0].fast.delays[0]: must be at most 30d');
  throwsAt(
    [{ name: 'a', fast: { delays: ['1s'], maxFailures: 5 } }],
    'policies[0].fast.maxFailures: 5 failures need at least 4 delays (there are 1)',
  );
  throwsAt(
    [{ name: 'a', fast: { delays: ['1s'], repeatLast: 'yes' } }],
    'policies[0].fast.repeatLast: must be true or false',
  );
  throwsAt(
    [{ name: 'a', fast: { delays: ['1h'], repeatLast: true } }],
    'policies[0].fast.repeatLast: would retry forever',
  );
  throwsAt(
    [{ name: 'a', fast: { delays: ['1h'], window: '1d', windowFrom: 'ladder_start' } }],
    'policies[0].fast.windowFrom: "ladder_start" applies to the slow ladder only',
  );
  throwsAt(
    [{ name: 'a', fast: { delays: ['1h'], windowFrom: 'later' } }],
    'policies[0].fast.windowFrom: must be one of',
  );
  throwsAt(
    [{ name: 'a', clientErrors: 'slow_for_money' }],
    'policies[0].clientErrors: "slow_for_money" needs a slow ladder',
  );
  throwsAt(
    [{ name: 'a', extends: 'payments', slow: null }],
    'policies[0].clientErrors: "slow_for_money" needs a slow ladder',
  );
  throwsAt(
    [
      { name: 'a', fast: { delays: ['1h'], repeatLast: true }, maxAge: '7d' },
      { name: 'b', extends: 'a', maxAge: null },
    ],
    'policies[1].fast.repeatLast: would retry forever',
  );
  throwsAt(
    [{ name: 'a', retryAfter: { max: '1h', honor: true } }],
    'policies[0].retryAfter.honor: unknown key; expected one of honour, max',
  );
  throwsAt(
    [{ name: 'a', breaker: { failureRatio: 1.5 } }],
    'policies[0].breaker.failureRatio: must be a fraction above 0 and at most 1',
  );
  throwsAt(
    [{ name: 'a', breaker: { scope: 'global' } }],
    'policies[0].breaker.scope: must be one of "tenant", "endpoint"',
  );
  throwsAt(
    [{ name: 'a', breaker: { pause: '10m', maxPause: '5m' } }],
    'policies[0].breaker.maxPause: must be at least breaker.pause',
  );
  throwsAt([{ name: 'a', breaker: 'on' }], 'policies[0].breaker: must be an object');
  throwsAt([{ name: 'a', health: { pauseOnGone: 1 } }], 'policies[0].health.pauseOnGone: must be true or false');
  throwsAt(
    [{ name: 'a', health: { suspendAfterConsecutiveFailedEvents: 0 } }],
    'policies[0].health.suspendAfterConsecutiveFailedEvents: must be a whole number',
  );
});

test('a strict-based policy with a shorter window keeps repeating within it', () => {
  const [p] = definePolicies([
    { name: 'day-half', extends: 'strict', fast: { delays: ['30s', '1h'], repeatLast: true, window: '12h' } },
  ]);
  assert.equal(p.jitter, STRICT.jitter);
  assert.equal(p.fast.windowFrom, undefined); // defaults to first_attempt in decide()
  const late = decide(
    p,
    { ...startProgress(0, false), firstAttemptAt: 0, fastFailures: 5 },
    { outcome: 'delivery_failure' },
    11.5 * H,
    () => 0.5,
  );
  assert.equal(late.kind === 'fail' && late.reason, '12h retry window ended');
});

test('the registry refuses hand-built policies that clash with presets or break the rules', () => {
  assert.throws(() => new PolicyRegistry([{ ...STANDARD }]), /policies\[0\]\.name: "standard" is a preset/);
  assert.throws(
    () =>
      new PolicyRegistry([
        { ...STANDARD, name: 'x' },
        { ...STANDARD, name: 'x' },
      ]),
    /policies\[1\]\.name: "x" is defined twice/,
  );
  assert.throws(() => new PolicyRegistry([{ ...STANDARD, name: 'x', fast: { delaysMs: [] } }]), PolicyConfigError);
});
