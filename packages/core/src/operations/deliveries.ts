// Deliveries: filtered pages (the dead letter is status=failed), one delivery with its payload and every attempt,
// and the hand-driven steps: retry now and dismiss.
import type { Actor } from '../audit/audit-types.ts';
import type { Attempt, Delivery } from '../domain.ts';
import { fail } from '../errors.ts';
import type { DeliveryFilter, Page } from '../store/store.ts';
import { audited } from './audit.ts';
import type { EngineParts } from './engine-parts.ts';
import { retryRefusal } from './retry-refusal.ts';

export class DeliveryOperations {
  readonly #p: EngineParts;

  constructor(parts: EngineParts) {
    this.#p = parts;
  }

  list(filter: DeliveryFilter, cursor: string | null, limit: number): Promise<Page<Delivery>> {
    return this.#p.store.reporting.listDeliveries(filter, cursor, limit);
  }

  /** The delivery, or null when the tenant has none by that id. */
  find(tenantId: string, id: string): Promise<Delivery | null> {
    return this.#p.store.reporting.getDelivery(tenantId, id);
  }

  /** The delivery with its event's body (null once purged) and every attempt; 404 `delivery_not_found`. */
  async detail(
    tenantId: string,
    id: string,
  ): Promise<{ delivery: Delivery; body: Buffer | null; attempts: Attempt[] }> {
    const store = this.#p.store;
    const d = await store.reporting.getDelivery(tenantId, id);
    if (!d) throw fail('delivery_not_found');
    const [event, attempts] = await Promise.all([
      store.events.getEvent(tenantId, d.eventId),
      store.reporting.listAttempts(d.id),
    ]);
    return { delivery: d, body: event ? event.event.body : null, attempts };
  }

  /**
   * Retry now (docs/rules.md#retry-now): a pending delivery, or one held whose breaker has closed, becomes due now — its
   * next attempt on its ladder, not a replay. 409 for a delivery that cannot move (finished, in flight, behind its key's
   * head, held by a breaker that is not closed, on a paused endpoint).
   */
  async retry(tenantId: string, deliveryId: string, actor?: Actor): Promise<Delivery> {
    const p = this.#p;
    const d = await p.store.reporting.getDelivery(tenantId, deliveryId);
    if (!d) throw fail('delivery_not_found');
    const ep = await p.store.catalog.getEndpoint(tenantId, d.endpointId);
    if (!ep) throw fail('delivery_not_found');
    const refusal = await retryRefusal(p, d, ep);
    if (refusal) throw refusal;
    const now = p.clock.now();
    const what = { action: 'delivery.retry', target: { type: 'delivery' as const, id: deliveryId, tenantId } };
    if (await audited(p, actor, what, 'retryDelivery', tenantId, deliveryId, now)) {
      p.dispatcher.wake();
      return { ...d, nextAttemptAt: now, updatedAt: now };
    }
    // Nothing moved: already due (as good as retried), or it changed between the read and the write.
    const again = await p.store.reporting.getDelivery(tenantId, deliveryId);
    if (!again) throw fail('delivery_not_found');
    const changed = await retryRefusal(p, again, ep);
    if (changed) throw changed;
    // Already due: answered as retried, and recorded as asked for (no row changed).
    await p.store.audit.appendAudit({ at: now, actor: actor ?? { kind: 'system', id: null }, ...what });
    p.dispatcher.wake();
    return again;
  }

  /**
   * Dismisses a failed delivery that holds its ordering key (on_failure `block`): it stays failed, and the key's later
   * deliveries go on (docs/rules.md#ordered-dismiss). 409 delivery_not_dismissable for any other delivery.
   */
  async dismiss(tenantId: string, deliveryId: string, actor?: Actor): Promise<Delivery> {
    const p = this.#p;
    const d = await p.store.reporting.getDelivery(tenantId, deliveryId);
    if (!d) throw fail('delivery_not_found');
    const ep = await p.store.catalog.getEndpoint(tenantId, d.endpointId);
    if (!ep) throw fail('endpoint_not_found');
    const holds =
      d.status === 'failed' && d.orderingKey != null && d.dismissedAt == null && ep.orderingOnFailure === 'block';
    if (!holds)
      throw fail('delivery_not_dismissable', {
        status:
          d.dismissedAt != null
            ? 'dismissed'
            : d.orderingKey == null
              ? `${d.status} without an ordering key`
              : d.status === 'failed'
                ? 'failed on an endpoint with on_failure continue'
                : d.status,
      });
    const now = p.clock.now();
    const what = { action: 'delivery.dismiss', target: { type: 'delivery' as const, id: deliveryId, tenantId } };
    if (!(await audited(p, actor, what, 'dismissDelivery', tenantId, deliveryId, now)))
      throw fail('delivery_not_dismissable', { status: 'changed' });
    p.dispatcher.wake();
    return { ...d, dismissedAt: now, updatedAt: now };
  }
}
