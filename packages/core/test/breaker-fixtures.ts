// Shared setup for the circuit-breaker tests: an engine on a virtual clock whose breaker transitions are recorded.
import type { BreakerTransition } from '../src/domain.ts';
import type { HooklineOptions } from '../src/engine-options.ts';
import { PAYMENTS } from '../src/policy/presets.ts';
import { PolicyRegistry } from '../src/policy/registry.ts';
import type { Policy } from '../src/policy/types.ts';
import { testEngine } from '../testing/harness.ts';
import { DAY, H, MIN, S } from '../testing/time.ts';

// The shared time constants, re-exported for the tests that import them from here.
export { DAY, H, MIN, S };

/** payments with the breaker per endpoint instead of per tenant. */
export const PAYMENTS_PER_ENDPOINT: Policy = {
  ...PAYMENTS,
  name: 'payments-endpoint',
  breaker: { ...PAYMENTS.breaker!, scope: 'endpoint' },
};
/** payments whose first pause outlasts the age limit: held deliveries meet the 30-day limit before any probe. */
export const PAYMENTS_LONG_PAUSE: Policy = {
  ...PAYMENTS,
  name: 'payments-long-pause',
  breaker: { ...PAYMENTS.breaker!, pauseMs: 40 * DAY, maxPauseMs: 40 * DAY },
};

export async function breakerEngine(options: Partial<HooklineOptions> = {}) {
  const transitions: BreakerTransition[] = [];
  const t = await testEngine({
    policies: new PolicyRegistry([PAYMENTS_PER_ENDPOINT, PAYMENTS_LONG_PAUSE]),
    observers: [{ breaker: (tr) => transitions.push(tr) }],
    ...options,
  });
  return { ...t, transitions };
}

/** `n` non-money events (a client error fails them at once, a delivery failure walks the fast ladder). */
export function events(n: number, prefix = 'e') {
  return Array.from({ length: n }, (_, i) => ({
    event_id: `${prefix}${i}`,
    type: 'subscription.renewed',
    data: { i },
  }));
}
