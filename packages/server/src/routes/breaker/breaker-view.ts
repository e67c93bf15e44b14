// A circuit breaker's state and window as the API answers it, and its JSON Schema.
import { BREAKER_SCOPES, BREAKER_STATES, type BreakerStatus } from '@hookline/core';
import { named } from '../../http/schema-names.ts';
import { int, iso, nullableStr, nullableTime, obj, str, time } from '../../http/views.ts';

export const BreakerSchema = named(
  'Breaker',
  obj({
    scope_key: str,
    scope: { type: 'string', enum: [...BREAKER_SCOPES] },
    state: { type: 'string', enum: [...BREAKER_STATES] },
    pause_ms: int,
    opened_at: nullableTime,
    next_probe_at: nullableTime,
    probe_delivery_id: nullableStr,
    updated_at: nullableTime,
    window: obj(
      { deliveries: int, failures: int, since: time },
      'Distinct deliveries attempted in the current sliding window (each counted once, by its latest attempt) and how many of them failed.',
    ),
  }),
);
export const breakerView = (b: BreakerStatus) => ({
  scope_key: b.scopeKey,
  scope: b.scope,
  state: b.state,
  pause_ms: b.pauseMs,
  opened_at: iso(b.openedAt),
  next_probe_at: iso(b.nextProbeAt),
  probe_delivery_id: b.probeDeliveryId,
  updated_at: iso(b.updatedAt),
  window: { deliveries: b.window.deliveries, failures: b.window.failures, since: iso(b.window.sinceMs) },
});
