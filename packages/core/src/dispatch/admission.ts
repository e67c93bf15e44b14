// The gate a claimed delivery passes before it is sent: the circuit breaker plugs in here (docs/rules.md#breaker-hold),
// behind the age limit (docs/rules.md#age-limit), which the dispatcher applies whatever the gate.
import type { Attempt } from '../domain.ts';
import { ageLimitReason, maxAgeExceeded } from '../policy/decide.ts';
import type { Policy } from '../policy/types.ts';
import type { ClaimedDelivery } from '../store/store.ts';

export type Admission =
  | { kind: 'send'; probe: boolean }
  /** Wait on an open breaker without spending an attempt. */
  | { kind: 'hold'; until: number }
  /** End without an attempt (age limit reached while held). */
  | { kind: 'fail'; reason: string };

export interface AdmissionGate {
  admit(claimed: ClaimedDelivery, policy: Policy, now: number): Promise<Admission>;
  /** Called after the attempt is durably recorded; `probe` tells whether it was the breaker's probe. */
  afterAttempt(claimed: ClaimedDelivery, policy: Policy, attempt: Attempt, probe: boolean, now: number): Promise<void>;
  /** The breaker scope key an attempt counts in, or null when the policy has none. */
  scopeKey(claimed: ClaimedDelivery, policy: Policy): string | null;
}

/** No breaker: everything is sent. */
export const openGate: AdmissionGate = {
  admit: async () => ({ kind: 'send', probe: false }),
  afterAttempt: async () => {},
  scopeKey: () => null,
};

/**
 * The dispatcher's admission: a delivery past its policy's age limit fails here, held or not, and a gate's hold never
 * outlasts the limit (the delivery comes back just in time to fail with the age reason). A custom gate cannot lose it.
 */
export async function admitWithAgeLimit(
  gate: AdmissionGate,
  claimed: ClaimedDelivery,
  policy: Policy,
  now: number,
): Promise<Admission> {
  if (maxAgeExceeded(policy, claimed.delivery, now)) return { kind: 'fail', reason: ageLimitReason(policy) };
  const a = await gate.admit(claimed, policy, now);
  if (a.kind !== 'hold' || policy.maxAgeMs === undefined) return a;
  return { kind: 'hold', until: Math.min(a.until, claimed.delivery.createdAt + policy.maxAgeMs + 1) };
}
