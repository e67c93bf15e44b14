// Why a delivery cannot be retried now (docs/rules.md#retry-now): the one decision behind the API's 409s.
import { type Delivery, type Endpoint, TERMINAL_STATUSES } from '../domain.ts';
import { fail, type HooklineError } from '../errors.ts';
import type { EngineParts } from './engine-parts.ts';

const iso = (ms: number | null) => (ms === null ? 'not set' : new Date(ms).toISOString());

/**
 * Null when the delivery may become due now: pending (or held by a breaker that has closed since), the head of its
 * ordering key, on an endpoint that is not paused. Otherwise the error to answer with.
 */
export async function retryRefusal(
  p: Pick<EngineParts, 'store' | 'policies' | 'breaker'>,
  d: Delivery,
  ep: Endpoint,
): Promise<HooklineError | null> {
  if ((TERMINAL_STATUSES as readonly string[]).includes(d.status))
    return fail('delivery_finished', { status: d.status, delivery_id: d.id });
  if (d.status === 'delivering') return fail('delivery_in_flight');
  if (ep.status === 'paused') return fail('endpoint_paused');
  if (d.orderingKey != null) {
    const head = await p.store.queue.findKeyHead(d.endpointId, d.orderingKey);
    if (head && head.id !== d.id) return fail('delivery_not_head', { head_id: head.id, head_status: head.status });
  }
  if (d.status === 'held') {
    // Held means an open breaker said so; the breaker, not a retry, decides when it goes.
    const rule = p.policies.get(ep.policy)?.breaker;
    if (rule) {
      const b = await p.breaker.status(
        rule.scope === 'endpoint' ? { tenantId: d.tenantId, endpointId: d.endpointId } : { tenantId: d.tenantId },
      );
      if (b.state !== 'closed')
        return fail('breaker_open', {
          scope: b.scope,
          scope_key: b.scopeKey,
          state: b.state,
          next_probe_at: iso(b.nextProbeAt),
        });
    }
  }
  return null;
}
